// Fused LLM kernels FlagGems benchmarks under marks with no single ATen operator: gated
// activations (vLLM's silu_and_mul, TransformerEngine's geglu / reglu / swiglu and their
// backwards) and residual-add normalisations. The baseline is the ATen composite FlagGems' torch
// reference (or, for the TransformerEngine marks, TE's kernel) computes, call for call, on the
// same inputs; the float64 reference of --verify runs the same composite. Each sits in the family
// its inputs fit: two operands (binary), one split in halves (unary), residual norms (norm).
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_softmax_backward_data.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/cumsum.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/gelu_backward.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/repeat_interleave.h>
#include <ATen/ops/rms_norm.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/silu_backward.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/threshold_backward.h>
#include <ATen/ops/topk.h>
#include <ATen/ops/where.h>
#include <fmt/format.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/derived_families.h"

namespace caliber {
namespace {

using GateFn = std::function<at::Tensor(const at::Tensor&)>;
using py_args::kw;
using py_args::list;
using py_args::t;

at::Tensor identity(const at::Tensor& x) { return x; }

// `activation(x) * up(y)`; with `out`, the product written into the last input, allocated by the
// builder as FlagGems' torch_op does (torch.empty_like(x)).
OpDef gated(const std::string& name, GateFn activation, GateFn up, bool out) {
  return OpDef(name)
      .family(Family::kBinary)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs([out](const BuildContext& c, Args& a) {
        ops::tensors(2)(c, a);
        if (out) a.t.push_back(at::empty_like(a.t[0]));
      })
      .call([activation, up, out](Args& a) {
        return out ? at::mul_out(a.t[2], activation(a.t[0]), up(a.t[1]))
                   : at::mul(activation(a.t[0]), up(a.t[1]));
      })
      .flops(ops::output_numel);
}

// The mark and, with `with_out`, its _out form, as test_silu_and_mul.py and
// test_silu_and_mul_with_clamp.py pair them: the same composite, the _out one ending in
// torch.mul(..., out=out). FlagGems' functions of the same names take (x, y[, out], *constants).
std::vector<OpDef> gated_marks(const std::string& name, const GateFn& activation, const GateFn& up,
                               std::vector<std::string> aten, bool with_out,
                               const std::vector<PyArg>& constants = {}) {
  auto args = [&constants](std::vector<PyArg> tensors) {
    tensors.insert(tensors.end(), constants.begin(), constants.end());
    return tensors;
  };
  std::vector<OpDef> ops = {
      gated(name, activation, up, false).aten(aten).python_fn(name, args({t(0), t(1)}))};
  if (with_out) {
    aten.back() += ".out";
    ops.push_back(gated(name + "_out", activation, up, true)
                      .aten(std::move(aten))
                      .python_fn(name + "_out", args({t(0), t(1), t(2)})));
  }
  return ops;
}

// TexGluBenchmark: the last dim splits in two halves, and FlagGems' Triton grid caps it
// (MAX_LAST_DIM = 2 * 64 * 65535).
std::string glu_unsupported(const Shape& s) {
  const int64_t kMaxLastDim = 2 * 64 * 65535;
  if (!s.is_flat() || s.items.empty()) return "";  // the builder reports a nested shape
  const int64_t last = s.items.back().integer;
  if (last % 2 != 0) return fmt::format("last dim {} is odd (TexGluBenchmark halves it)", last);
  if (last > kMaxLastDim) {
    return fmt::format("last dim {} over TexGluBenchmark's MAX_LAST_DIM {}", last, kMaxLastDim);
  }
  return "";
}

std::vector<Shape> glu_more_shapes() {
  std::vector<Shape> shapes;
  for (int i = 1; i < 20; i += 4) shapes.push_back({{1024, int64_t{1} << i}});
  for (int i = 1; i < 15; i += 4) shapes.push_back({{64, 64, int64_t{1} << i}});
  return shapes;
}

// TransformerEngine's GLU over the halves of the last dim: act(x[..., :H]) * x[..., H:]. With
// `backward`, TE's d<act>glu(grad [.., H], x [.., 2H]): the gradient of both halves, concatenated.
OpDef te_glu(const std::string& name, bool backward) {
  return OpDef(name)
      .family(Family::kUnary)
      .shape_key(backward ? "TexGluBackwardBenchmark" : "TexGluForwardBenchmark")
      .more_shapes(glu_more_shapes())
      .skip_shapes(glu_unsupported)
      .inputs([backward](const BuildContext& c, Args& a) {
        auto d = c.dims();
        at::Tensor x = ops::random(c, d);
        if (!backward) {
          a.t = {x};
          return;
        }
        d.back() /= 2;
        a.t = {ops::random(c, d), x};
      })
      .flops([backward](const Args& a, const at::Tensor&) {
        return static_cast<double>(a.t.back().numel()) * (backward ? 2 : 1);
      });
}

// gelu in TE (and FlagGems' geglu kernel) is the tanh approximation.
at::Tensor gelu_tanh(const at::Tensor& x) { return at::gelu(x, "tanh"); }

// x + residual, then FlagGems' torch_add_rms_norm / torch_op: x * rsqrt(mean(x^2) + eps) * w.
at::Tensor add_rms_norm(Args& a) {
  at::Tensor x = a.t[0] + a.t[1];
  at::Tensor variance = x.pow(2).mean(-1, /*keepdim=*/true);
  return a.t[2] * (x * at::rsqrt(variance + 1e-5));
}

// inp, residual ~ N(0, 1) of the shape, weight (and bias) of its last dim.
BuildFn residual_inputs(int params) {
  return [params](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, d), ops::random(c, d)};
    for (int i = 0; i < params; ++i) a.t.push_back(ops::random(c, {d.back()}));
    a.lists = {{d.back()}};
  };
}

OpDef residual_norm(const std::string& name, int params, CallFn call) {
  return OpDef(name)
      .family(Family::kNorm)
      .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
      .more_shapes(ops::generic_more_shapes_no_1d())
      .inputs(residual_inputs(params))
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(4);
}

// test_moe_sum.py: (tokens, topk, hidden) experts' outputs, a 2-D shape read as topk 1, summed
// over topk into an empty (tokens, hidden) by output.copy_(input.sum(dim=1)).
void moe_sum_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  if (d.size() == 2) d = {d[0], 1, d[1]};
  a.t = {ops::random(c, d), at::empty({d[0], d[2]}, c.options())};
}

std::string moe_sum_unsupported(const Shape& s) {
  if (!s.is_flat() || s.items.size() == 2 || s.items.size() == 3) return "";
  return fmt::format("{} dims (test_moe_sum.py unpacks (num_tokens, topk, hidden_size))",
                     s.items.size());
}

// test_scaled_softmax.py's ScaledSoftmaxBenchmark: [batch, heads, query_len, key_len], float16
// and bfloat16, scale 1 / sqrt(key_len). The backward's input_fn yields (P, dP, scale) with
// P = softmax(S / scale), in the order TE's (output_grads, softmax_results, scale) reads them.
OpDef scaled_softmax(const std::string& name, bool backward) {
  return OpDef(name)
      .family(Family::kSoftmax)
      .dtypes({DType::kFloat16, DType::kBFloat16})
      .shape_keys({"ScaledSoftmaxBenchmark", "GenericBenchmark"})
      .shape_desc("batch, heads, query_len, key_len")
      .inputs([backward](const BuildContext& c, Args& a) {
        auto d = c.dims();
        const double scale = 1.0 / std::sqrt(static_cast<double>(d.back()));
        at::Tensor s = ops::random(c, d);
        a.t = {s};
        if (backward) a.t = {at::softmax(s / scale, -1), ops::random(c, d)};
        a.f = {scale};
      })
      .flops(ops::input_numel);
}

// test_te_rmsnorm.py on 2-D (M, N): x, weight of N; the backward's input_fn adds dz and the
// float32 rsigma of x (its forward's), eps 1e-5. TE computes in float32 and returns the input's
// dtype; result[0] is the normalised x (forward) or dx (backward).
OpDef te_rmsnorm(const std::string& name, bool backward) {
  return OpDef(name)
      .family(Family::kNorm)
      .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
      .shape_desc("M, N")
      .more_shapes(ops::generic_more_shapes_2d())
      .inputs([backward](const BuildContext& c, Args& a) {
        auto d = c.dims();
        at::Tensor x = ops::random(c, d), weight = ops::random(c, {d.back()});
        if (!backward) {
          a.t = {x, weight};
          return;
        }
        at::Tensor x32 = x.to(at::kFloat);
        at::Tensor rsigma = at::rsqrt(x32.pow(2).mean(-1, /*keepdim=*/true) + 1e-5).squeeze(-1);
        a.t = {ops::random(c, d), x, rsigma, weight};
      })
      .flops(ops::input_numel)
      .tolerance(4);
}

// float32 where the references cast to it, kept float64 for --verify's float64 reference.
at::ScalarType at_least_float(const at::Tensor& t) {
  return at::promote_types(t.scalar_type(), at::kFloat);
}

// dx of y = x * rsigma * w: rsigma * (dz w - x^ mean(dz w x^)), x^ = x * rsigma, in float32.
at::Tensor rmsnorm_dx(Args& a) {
  const auto acc = at_least_float(a.t[1]);
  at::Tensor rsigma = a.t[2].unsqueeze(-1).to(acc);
  at::Tensor g = a.t[0].to(acc) * a.t[3].to(acc);
  at::Tensor x_hat = a.t[1].to(acc) * rsigma;
  at::Tensor dx = rsigma * (g - x_hat * (g * x_hat).mean(-1, /*keepdim=*/true));
  return dx.to(a.t[1].scalar_type());
}

// test_apply_rotary_pos_emb.py: q (4, seq, 8, 64), k (4, seq, 1, 64) and get_rope_cos_sin's
// cos, sin (seq, 32) of base 10000, cast to the dtype.
void rope_inputs(const BuildContext& c, Args& a) {
  const int64_t batch = 4, q_heads = 8, k_heads = 1, head_dim = 64, seq = c.dims()[0];
  auto f32 = c.options().dtype(at::kFloat);
  at::Tensor inv_freq = 1.0 / at::pow(10000.0, at::arange(0, head_dim, 2, f32) / head_dim);
  at::Tensor freqs = at::outer(at::arange(seq, f32), inv_freq);
  a.t = {ops::random(c, {batch, seq, q_heads, head_dim}),
         ops::random(c, {batch, seq, k_heads, head_dim}), freqs.cos().to(c.scalar_type()),
         freqs.sin().to(c.scalar_type())};
}

// torch_apply_rotary_pos_emb: in float32, cos and sin broadcast over batch and heads and
// repeat_interleave'd to the head dim, x * cos + rotate_fn(x) * sin, rotate_fn(x) = [-x2, x1].
at::Tensor rope(Args& a) {
  const auto acc = at_least_float(a.t[0]);
  at::Tensor q = a.t[0].to(acc), k = a.t[1].to(acc);
  using at::indexing::None;
  using at::indexing::Slice;
  auto seq = Slice(None, q.size(-3));
  at::Tensor cos = at::repeat_interleave(a.t[2].index({None, seq, None, Slice()}), 2, -1);
  at::Tensor sin = at::repeat_interleave(a.t[3].index({None, seq, None, Slice()}), 2, -1);
  auto rotate = [](const at::Tensor& x) {
    auto h = x.chunk(2, -1);
    return at::cat({-h[1], h[0]}, -1);
  };
  at::Tensor q_embed = q * cos + rotate(q) * sin;
  at::Tensor k_embed = k * cos + rotate(k) * sin;
  // The reference returns (q_embed, k_embed): both are computed and timed; q_embed is verified.
  (void)k_embed;
  return q_embed;
}

// FlagGems' GEMM-plus-bias marks on BlasBenchmark: x [M, K], w [K, N], bias [N] (B unused). Their
// input_fn ignores b_column_major, so the comprehensive second pass repeats the same inputs.
OpDef gemm_bias(const std::string& name, CallFn call) {
  return OpDef(name)
      .family(Family::kBlas)
      .shape_key("BlasBenchmark")
      .shape_desc("B, M, N, K")
      .more_shapes(ops::blas_more_shapes())
      .column_major_pass()
      .inputs([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        const int64_t m = d[1], n = d[2], k = d[3];
        a.t = {ops::random(c, {m, k}), ops::random(c, {k, n}), ops::random(c, {n})};
      })
      .call(std::move(call))
      .tolerance(2);
}

}  // namespace

std::vector<OpDef> fused_ops() {
  using A = Args;
  auto silu = [](const at::Tensor& x) { return at::silu(x); };
  // test_silu_and_mul_with_clamp.py: limit 7.0, the gate clamped above, up on both sides.
  const double kLimit = 7.0;
  auto clamp_gate = [kLimit](const at::Tensor& x) {
    return at::silu(at::clamp(x, std::optional<at::Scalar>(), at::Scalar(kLimit)));
  };
  auto clamp_up = [kLimit](const at::Tensor& x) {
    return at::clamp(x, at::Scalar(-kLimit), at::Scalar(kLimit));
  };
  std::vector<OpDef> ops;
  auto add = [&ops](std::vector<OpDef> more) {
    for (auto& op : more) ops.push_back(std::move(op));
  };
  add(gated_marks("silu_and_mul", silu, identity, {"aten::silu", "aten::mul"}, true));
  add(gated_marks(
      "gelu_and_mul", [](const at::Tensor& x) { return at::gelu(x); }, identity,
      {"aten::gelu", "aten::mul"}, false));
  add(gated_marks("silu_and_mul_with_clamp", clamp_gate, clamp_up,
                  {"aten::clamp", "aten::silu", "aten::mul"}, true, {kLimit}));

  // TE forward GLUs: act(a) * b over the halves; backward: [grad * b * act'(a), grad * act(a)].
  // FlagGems' functions of the same names take TE's (x) and (grad, x), the quantizer left None.
  auto halves = [](const at::Tensor& x) { return x.chunk(2, -1); };
  auto forward = [&](const char* name, GateFn act, std::vector<std::string> aten) {
    return te_glu(name, false)
        .call([=](A& a) {
          auto h = halves(a.t[0]);
          return at::mul(act(h[0]), h[1]);
        })
        .aten(std::move(aten))
        .python_fn(name, {t(0)});
  };
  using BackFn = std::function<at::Tensor(const at::Tensor& grad, const at::Tensor& a)>;
  auto backward = [&](const char* name, GateFn act, BackFn act_backward,
                      std::vector<std::string> aten) {
    return te_glu(name, true)
        .call([=](A& a) {
          auto h = halves(a.t[1]);
          const at::Tensor& grad = a.t[0];
          return at::cat({act_backward(grad * h[1], h[0]), grad * act(h[0])}, -1);
        })
        .aten(std::move(aten))
        .python_fn(name, {t(0), t(1)});
  };
  auto relu = [](const at::Tensor& x) { return at::relu(x); };
  add({
      forward("geglu", gelu_tanh, {"aten::gelu", "aten::mul"}),
      forward("reglu", relu, {"aten::relu", "aten::mul"}),
      forward("swiglu", silu, {"aten::silu", "aten::mul"}),
      backward(
          "dgeglu", gelu_tanh,
          [](const at::Tensor& g, const at::Tensor& x) { return at::gelu_backward(g, x, "tanh"); },
          {"aten::gelu_backward", "aten::gelu", "aten::mul", "aten::cat"}),
      backward(
          "dreglu", relu,
          [](const at::Tensor& g, const at::Tensor& x) { return at::threshold_backward(g, x, 0); },
          {"aten::threshold_backward", "aten::relu", "aten::mul", "aten::cat"}),
      backward("dswiglu", silu,
               [](const at::Tensor& g, const at::Tensor& x) { return at::silu_backward(g, x); },
               {"aten::silu_backward", "aten::silu", "aten::mul", "aten::cat"}),
  });

  const std::vector<std::string> kRmsAten = {"aten::add", "aten::pow", "aten::mean", "aten::rsqrt",
                                             "aten::mul"};
  add({
      // test_add_rms_norm.py: (x1, x2, (N,), weight) on 2-D shapes.
      residual_norm("add_rms_norm", 1, add_rms_norm)
          .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
          .more_shapes(ops::generic_more_shapes_2d())
          .aten(kRmsAten)
          .python_fn("add_rms_norm", {t(0), t(1), list(0), t(2)}),
      // test_fused_add_rms_norm.py: the same torch_op, eps 1e-5, on GenericBenchmarkExcluse1D.
      // flag_gems.fused_add_rms_norm works in place (x and residual), as in its benchmark.
      residual_norm("fused_add_rms_norm", 1, add_rms_norm)
          .aten(kRmsAten)
          .python_fn("fused_add_rms_norm", {t(0), t(1), list(0), t(2), 1e-5}),
      // test_skip_layer_norm.py: torch.layer_norm(inp + residual, (N,), weight, bias).
      residual_norm(
          "skip_layer_norm", 2,
          [](A& a) { return at::layer_norm(a.t[0] + a.t[1], a.lists[0], a.t[2], a.t[3]); })
          .aten({"aten::add", "aten::native_layer_norm"})
          .python_fn("skip_layer_norm", {t(0), t(1), list(0), t(2), t(3)}),
  });

  // TE's scaled softmax: softmax(x * scale) over the last dim; its backward,
  // scale * softmax_backward(output_grads, softmax_results).
  add({
      scaled_softmax("scaled_softmax_forward", false)
          .call([](A& a) { return at::softmax(a.t[0] * a.f[0], -1); })
          .aten({"aten::mul.Tensor", "aten::_softmax"})
          .python_fn("scaled_softmax_forward", {t(0), py_args::f(0)}),
      scaled_softmax("scaled_softmax_backward", true)
          .call([](A& a) {
            return at::_softmax_backward_data(a.t[0], a.t[1], -1, a.t[0].scalar_type()) * a.f[0];
          })
          .aten({"aten::_softmax_backward_data", "aten::mul.Tensor"})
          .python_fn("scaled_softmax_backward", {t(0), t(1), py_args::f(0)}),
  });
  add({
      te_rmsnorm("te_rmsnorm_fwd", false)
          .call([](A& a) { return at::rms_norm(a.t[0], {a.t[0].size(-1)}, a.t[1], 1e-5); })
          .aten({"aten::rms_norm"})
          .python_fn("te_rmsnorm_fwd", {t(0), t(1), 1e-5, kw("zero_centered_gamma", false)}),
      te_rmsnorm("te_rmsnorm_bwd", true)
          .call(rmsnorm_dx)
          .aten({"aten::_to_copy", "aten::mul.Tensor", "aten::mean.dim", "aten::sub.Tensor"})
          .python_fn("te_rmsnorm_bwd", {t(0), t(1), t(2), t(3), 0, false}),
      OpDef("apply_rotary_pos_emb")
          .family(Family::kAttention)
          .shape_key("RopeBenchmark")
          .shape_desc("seq_len")
          .inputs(rope_inputs)
          .call(rope)
          .flops(ops::input_numel)
          .tolerance(2)
          .aten({"aten::_to_copy", "aten::repeat_interleave.self_int", "aten::cat", "aten::neg",
                 "aten::mul.Tensor", "aten::add.Tensor"})
          .python_fn("apply_rotary_pos_emb", {t(0), t(1), t(2), t(3)}),
  });
  add({
      OpDef("moe_sum")
          .family(Family::kReduction)
          .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
          .more_shapes(ops::generic_more_shapes_no_1d())
          .skip_shapes(moe_sum_unsupported)
          .inputs(moe_sum_inputs)
          .call([](A& a) { return a.t[1].copy_(a.t[0].sum(1)); })
          .flops(ops::input_numel)
          .aten({"aten::sum.dim_IntList", "aten::copy_"})
          .python_fn("moe_sum", {t(0), t(1)}),
      // test_normed_cumsum.py: cumsum(x, -1) / x.sum(-1, keepdim=True), x = rand + 0.1.
      OpDef("normed_cumsum")
          .family(Family::kReduction)
          .shape_key("GenericBenchmark")
          .more_shapes(ops::generic_more_shapes())
          .inputs(
              [](const BuildContext& c, A& a) { a.t = {at::rand(c.dims(), c.options()) + 0.1}; })
          .call([](A& a) { return at::cumsum(a.t[0], -1) / a.t[0].sum(-1, /*keepdim=*/true); })
          .flops(ops::input_numel)
          .aten({"aten::cumsum", "aten::sum.dim_IntList", "aten::div.Tensor"})
          .python_fn("normed_cumsum", {t(0), -1}),
      // test_matmuladd.py: matmul(x [M, K], w [K, N]) + bias [N]; MatMulAddBenchmark.get_tflops
      // M * N * (2K + 1).
      gemm_bias("matmuladd", [](A& a) { return at::matmul(a.t[0], a.t[1]) + a.t[2]; })
          .flops([](const A& a, const at::Tensor&) {
            return static_cast<double>(a.t[0].size(0)) * a.t[1].size(1) *
                   (2.0 * a.t[0].size(1) + 1);
          })
          .aten({"aten::matmul", "aten::mm", "aten::add.Tensor"})
          .python_fn("matmuladd", {t(0), t(1), t(2)}),
      // test_matmul_bias_activation.py: relu(mm(x, w) + bias); set_more_shapes returns None.
      gemm_bias("matmul_bias_activation",
                [](A& a) { return at::relu(at::mm(a.t[0], a.t[1]) + a.t[2]); })
          .more_shapes({})
          .flops([](const A& a, const at::Tensor&) {
            return 2.0 * a.t[0].size(0) * a.t[1].size(1) * a.t[0].size(1);
          })
          .aten({"aten::mm", "aten::add.Tensor", "aten::relu"})
          .python_fn("matmul_bias_activation", {t(0), t(1), t(2)}),
  });
  return ops;
}

}  // namespace caliber
