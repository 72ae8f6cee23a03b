// Quantisation by its ATen operators, with FlagGems' inputs: dequantize of a qint8 tensor, fake
// quantisation per channel and per tensor, the observer-and-fake-quantise step, qparam search,
// int8 / int4 weight kernels. Several of these take float32 (or integer) scales only, so their
// float64 reference cannot run: they are checked against the quantisation formula instead.
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/_convert_weight_to_int4pack.h>
#include <ATen/ops/_dyn_quant_pack_4bit_weight.h>
#include <ATen/ops/_fake_quantize_learnable_per_tensor_affine.h>
#include <ATen/ops/_fused_moving_avg_obs_fq_helper.h>
#include <ATen/ops/_weight_int8pack_mm.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/choose_qparams_optimized.h>
#include <ATen/ops/dequantize.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/fake_quantize_per_channel_affine.h>
#include <ATen/ops/fake_quantize_per_channel_affine_cachemask.h>
#include <ATen/ops/full.h>
#include <ATen/ops/quantize_per_tensor.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <fmt/format.h>

#include <algorithm>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/schema_call.h"

namespace caliber {
namespace {

OpDef quant(const std::string& name, const char* key, const char* desc, std::vector<DType> dtypes,
            BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kTensor)
      .shape_key(key)
      .shape_desc(desc)
      .dtypes(std::move(dtypes))
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(ops::input_numel);
}

// Relative tolerance of a result of `type` against a float64 formula.
double relative_tolerance(at::ScalarType type) {
  if (type == at::kHalf) return 1e-2;
  if (type == at::kBFloat16) return 4e-2;
  return 1e-4;
}

// (clamp(round(x / s) + zp, qmin, qmax) - zp) * s against `out`, in float64, s and zp broadcast
// to x: a result may sit one quantisation step off where x / s rounds the other way at a half-way
// point in the input's precision.
std::string quantisation_step_off(const at::Tensor& x_in, const at::Tensor& s, const at::Tensor& zp,
                                  int64_t qmin, int64_t qmax, const at::Tensor& out) {
  at::Tensor x = x_in.to(at::kCPU, at::kDouble);
  at::Tensor expected = ((x / s).round() + zp).clamp(qmin, qmax).sub(zp).mul(s);
  at::Tensor diff = (out.to(at::kCPU, at::kDouble) - expected).abs();
  at::Tensor allowed = s * 1.001 + expected.abs() * relative_tolerance(out.scalar_type());
  const int64_t bad = diff.gt(allowed).sum().item<int64_t>();
  return bad == 0 ? ""
                  : fmt::format("{} of {} elements more than one quantisation step off", bad,
                                out.numel());
}

// _fake_quantize_learnable_per_tensor_affine(x, [s], [zp], qmin, qmax) by the formula.
std::string per_tensor_formula(const Args& a, const at::Tensor& out) {
  return quantisation_step_off(a.t[0], a.t[1].to(at::kCPU, at::kDouble),
                               a.t[2].to(at::kCPU, at::kDouble), a.i[0], a.i[1], out);
}

// fake_quantize_per_channel_affine(x, s, zp, axis, qmin, qmax) by the formula, per channel.
std::string per_channel_formula(const Args& a, const at::Tensor& out) {
  std::vector<int64_t> view(a.t[0].dim(), 1);
  view[a.i[0]] = -1;
  return quantisation_step_off(a.t[0], a.t[1].to(at::kCPU, at::kDouble).view(view),
                               a.t[2].to(at::kCPU, at::kDouble).view(view), a.i[1], a.i[2], out);
}

// (channels) scales s, int32 zero points of 0, for `x` along axis 0.
void per_channel_inputs(const BuildContext& c, Args& a, double scale_floor, double scale_span) {
  at::Tensor x = ops::random(c, c.dims());
  const int64_t channels = x.size(0);
  auto f32 = c.options().dtype(at::kFloat);
  a.t = {x, at::rand({channels}, f32).mul_(scale_span).add_(scale_floor),
         at::zeros({channels}, c.options().dtype(at::kInt))};
  a.i = {0, 0, 255};
}

}  // namespace

std::vector<OpDef> quantize_ops() {
  using A = Args;
  const std::vector<DType> kFloat32 = {DType::kFloat32};
  std::vector<OpDef> ops;
  // dequantize(quantize_per_tensor(randn, 0.1, 0, qint8)): FlagGems' dtype is the qint8 source;
  // caliber's is the float32 it is quantised from and dequantised to.
  ops.push_back(quant(
                    "dequantize", "GenericBenchmarkExcluse1D", "", kFloat32,
                    [](const BuildContext& c, A& a) {
                      at::Tensor x = at::randn(c.dims(), at::TensorOptions().dtype(at::kFloat));
                      a.t = {at::quantize_per_tensor(x, 0.1, 0, at::kQInt8).to(c.device)};
                    },
                    [](A& a) { return at::dequantize(a.t[0]); })
                    .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
                    .more_shapes(ops::generic_more_shapes_no_1d())
                    .aten({"aten::dequantize.self"}));
  // fake_quantize_per_channel_affine(x, s in [0.01, 0.11), zero points 0, axis 0, 0, 255):
  // FlagGems' shapes and its first axis.
  ops.push_back(quant(
                    "fake_quantize_per_channel_affine", "FakeQuantizePerChannelAffineBenchmark",
                    "input shape", kFloatDTypes,
                    [](const BuildContext& c, A& a) { per_channel_inputs(c, a, 0.01, 0.1); },
                    ops::aten_call("aten::fake_quantize_per_channel_affine"))
                    .check(per_channel_formula));
  // fake_quantize_per_channel_affine_cachemask(x, s in [0.1, 1.1), zero points 0, axis 0, 0,
  // 255) and its out= form (out0 of x's shape and dtype, out1 bool).
  for (bool out : {false, true}) {
    const std::string aten = out ? "aten::fake_quantize_per_channel_affine_cachemask.out"
                                 : "aten::fake_quantize_per_channel_affine_cachemask";
    ops.push_back(quant(
                      out ? "fake_quantize_per_channel_affine_cachemask_out"
                          : "fake_quantize_per_channel_affine_cachemask",
                      "FakeQuantizePerChannelAffineBenchmark", "input shape", kFloatDTypes,
                      [out](const BuildContext& c, A& a) {
                        per_channel_inputs(c, a, 0.1, 1.0);
                        if (!out) return;
                        a.t.push_back(at::empty_like(a.t[0]));
                        a.t.push_back(at::empty_like(a.t[0], c.options().dtype(at::kBool)));
                      },
                      ops::aten_call(aten))
                      .check(per_channel_formula)
                      .aten({aten}));
  }
  // _fake_quantize_learnable_per_tensor_affine(5 N(0, 1), [0.1], [127], 0, 255).
  ops.push_back(quant(
                    "fake_quantize_learnable_per_tensor_affine", "GenericBenchmark", "",
                    kFloatDTypes,
                    [](const BuildContext& c, A& a) {
                      a.t = {ops::random(c, c.dims()).mul_(5),
                             at::full({1}, 0.1, c.options().dtype(at::kFloat)),
                             at::full({1}, 127, c.options().dtype(at::kInt))};
                      a.i = {0, 255};
                    },
                    ops::aten_call("aten::_fake_quantize_learnable_per_tensor_affine"))
                    .check(per_tensor_formula)
                    .more_shapes(ops::generic_more_shapes())
                    .aten({"aten::_fake_quantize_learnable_per_tensor_affine"}));
  // _fused_moving_avg_obs_fq_helper(x, on, on, running min -0.5, max 0.5, scale 1, zero point
  // 0, 0.01, 0, 255, axis 0, per channel where x has more than one dim, not symmetric), float32.
  ops.push_back(quant(
                    "fused_moving_avg_obs_fq_helper", "GenericBenchmark", "", kFloat32,
                    [](const BuildContext& c, A& a) {
                      at::Tensor x = ops::random(c, c.dims());
                      const int64_t n = x.dim() > 1 ? x.size(0) : 1;
                      auto longs = c.options().dtype(at::kLong);
                      a.t = {x,
                             at::scalar_tensor(1, longs),
                             at::scalar_tensor(1, longs),
                             at::full({n}, -0.5, c.options()),
                             at::full({n}, 0.5, c.options()),
                             at::full({n}, 1.0, c.options()),
                             at::zeros({n}, c.options().dtype(at::kInt))};
                    },
                    [](A& a) {
                      return std::get<0>(at::_fused_moving_avg_obs_fq_helper(
                          a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], a.t[5], a.t[6], 0.01, 0, 255, 0,
                          a.t[0].dim() > 1, false));
                    })
                    .more_shapes({{1 << 26}, {1 << 28}, {2048, 16384}, {4096, 16384}})
                    .aten({"aten::_fused_moving_avg_obs_fq_helper"}));
  // choose_qparams_optimized(x flattened, numel, 200 bins, 0.16, 8 bits): the chosen range,
  // checked to lie within x's (its kernel reads float32 only).
  ops.push_back(quant(
                    "choose_qparams_optimized", "ChooseQParamsBenchmark", "N", kFloat32,
                    [](const BuildContext& c, A& a) {
                      at::Tensor x = ops::random(c, c.dims()).view(-1);
                      a.t = {x};
                      a.i = {x.numel(), 200, 8};
                      a.f = {0.16};
                    },
                    [](A& a) {
                      auto [xmin, xmax] =
                          at::choose_qparams_optimized(a.t[0], a.i[0], a.i[1], a.f[0], a.i[2]);
                      return at::cat({xmin.view(-1), xmax.view(-1)});
                    })
                    .check([](const Args& a, const at::Tensor& range) -> std::string {
                      // ATen gives the pair as (max, min): the check takes either order.
                      const double r0 = range[0].item<double>(), r1 = range[1].item<double>();
                      const double lo = std::min(r0, r1), hi = std::max(r0, r1);
                      const double min = a.t[0].min().item<double>();
                      const double max = a.t[0].max().item<double>();
                      if (lo >= min - 1e-6 && hi <= max + 1e-6) return "";
                      return fmt::format("[{:.4g}, {:.4g}] is not a sub-range of [{:.4g}, {:.4g}]",
                                         lo, hi, min, max);
                    })
                    .aten({"aten::choose_qparams_optimized"}));
  // _weight_int8pack_mm(A [M, K], int8 B [N, K], scales [N]): FlagGems' (M, N, K), checked
  // against (A B^T) * scales in float64 (the kernel takes 16- and 32-bit floats only).
  ops.push_back(
      quant(
          "weight_int8pack_mm", "WeightInt8packMMBenchmark", "M, N, K",
          {DType::kFloat16, DType::kBFloat16},
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[2]}),
                   at::randint(-128, 127, {d[1], d[2]}, c.options().dtype(at::kChar)),
                   ops::random(c, {d[1]})};
          },
          [](A& a) { return at::_weight_int8pack_mm(a.t[0], a.t[1], a.t[2]); })
          .family(Family::kBlas)
          .flops([](const Args& a, const at::Tensor&) {
            return 2.0 * static_cast<double>(a.t[0].size(0) * a.t[1].size(0) * a.t[1].size(1));
          })
          .check([](const Args& a, const at::Tensor& out) -> std::string {
            at::Tensor expected = a.t[0]
                                      .to(at::kCPU, at::kDouble)
                                      .matmul(a.t[1].to(at::kCPU, at::kDouble).t())
                                      .mul(a.t[2].to(at::kCPU, at::kDouble));
            const double scale = expected.abs().max().item<double>() + 1.0;
            const double off =
                (out.to(at::kCPU, at::kDouble) - expected).abs().max().item<double>() / scale;
            return off <= relative_tolerance(out.scalar_type())
                       ? ""
                       : fmt::format("max |diff| / max |A B^T s| = {:.3g}", off);
          })
          .aten({"aten::_weight_int8pack_mm"}));
  // _convert_weight_to_int4pack(uint8 [N, K / 2] of two int4 values a byte, 2 inner K tiles):
  // FlagGems' (N, K / 2) and its first innerKTiles (ops/dismiss.yaml: a CUDA kernel only).
  ops.push_back(
      quant(
          "convert_weight_to_int4pack", "ConvertWeightBenchmark", "N, K / 2", {DType::kUInt8},
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            at::Tensor int4 = at::randint(0, 16, {d[0], 2 * d[1]}, c.options().dtype(at::kInt));
            using at::indexing::Slice;
            at::Tensor high = int4.index({Slice(), Slice(1, at::indexing::None, 2)});
            at::Tensor low = int4.index({Slice(), Slice(0, at::indexing::None, 2)});
            a.t = {high.bitwise_left_shift(4).bitwise_or(low).to(at::kByte)};
            a.i = {2};
          },
          ops::aten_call("aten::_convert_weight_to_int4pack"))
          .aten({"aten::_convert_weight_to_int4pack"}));
  // _dyn_quant_pack_4bit_weight(uint8 [OUT, IN / 2], scales [OUT, IN / BLOCK], bias [OUT],
  // BLOCK, IN, OUT): FlagGems' (OUT, IN, BLOCK), float32 (ops/dismiss.yaml: a CPU kernel only).
  ops.push_back(quant(
                    "dyn_quant_pack_4bit_weight", "DynQuantPack4BitWeightBenchmark",
                    "OUT_FEATURES, IN_FEATURES, BLOCK_SIZE", kFloat32,
                    [](const BuildContext& c, A& a) {
                      auto d = c.dims();
                      a.t = {at::randint(0, 256, {d[0], d[1] / 2}, c.options().dtype(at::kByte)),
                             ops::random(c, {d[0], d[1] / d[2]}), ops::random(c, {d[0]})};
                      a.i = {d[2], d[1], d[0]};
                    },
                    ops::aten_call("aten::_dyn_quant_pack_4bit_weight"))
                    .aten({"aten::_dyn_quant_pack_4bit_weight"}));
  return ops;
}

}  // namespace caliber
