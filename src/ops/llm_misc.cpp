// FlagGems marks of LLM and vision kernels with no single ATen operator: beam-search scores,
// FFT and grid_sample (ATen has them under other names), multimodal and DeepSeek-V4 rotary
// embeddings, the manifold hyper-connection (mHC) kernels, RWKV's fused pieces and the gated
// delta rule of linear attention. The baseline is the torch reference of FlagGems' test (or, where
// the test times a Triton kernel, the computation that kernel performs), ported call for call into
// ATen, on the test's inputs; the float64 reference of --verify runs the same composite, with the
// float32 casts of the references kept float64 there.
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/ceil.h>
#include <ATen/ops/chunk.h>
#include <ATen/ops/complex.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/exp2.h>
#include <ATen/ops/fft_fft.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/grid_sampler.h>
#include <ATen/ops/log1p.h>
#include <ATen/ops/log2.h>
#include <ATen/ops/log_sigmoid.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/mv.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/quantile.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randn_like.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <fmt/format.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/derived_families.h"

namespace caliber {
namespace {

using A = Args;
using at::indexing::Ellipsis;
using at::indexing::None;
using at::indexing::Slice;

// float32 where the references cast to it, kept float64 for --verify's float64 reference.
at::ScalarType at_least_float(const at::Tensor& t) {
  return at::promote_types(t.scalar_type(), at::kFloat);
}

at::TensorOptions f32(const BuildContext& c) { return c.options().dtype(at::kFloat); }

// ---- beam_search_score(_): log_probs [batch, vocab] + beam_scores [batch] broadcast over vocab.
// Both marks time that out-of-place torch_op (test_beam_search_score.py:70-72, 88-90).
OpDef beam_search_score(const std::string& name) {
  return OpDef(name)
      .family(Family::kBinary)
      .shape_key("BeamSearchScoreBenchmark")
      .shape_desc("batch_size, vocab_size")
      .inputs([](const BuildContext& c, A& a) {
        auto d = c.dims();
        const int64_t batch = d[0], vocab = d.size() > 1 ? d[1] : d[0];
        a.t = {ops::random(c, {batch, vocab}), ops::random(c, {batch})};
      })
      .call([](A& a) { return a.t[0] + a.t[1].unsqueeze(-1); })
      .flops([](const A& a, const at::Tensor&) {
        return static_cast<double>(a.t[0].numel() + a.t[1].numel());
      })
      .aten({"aten::unsqueeze", "aten::add.Tensor"})
      .python_fn(name, {py_args::t(0), py_args::t(1)});
}

// ---- grid_sample: the case index ending each GridSampleBenchmark row picks one of the
// configurations its input_fn yields per shape (the fourth, bicubic, on 4-D inputs only).
struct GridCase {
  int64_t mode;     // at::grid_sampler's interpolation: 0 bilinear, 1 nearest, 2 bicubic
  int64_t padding;  // 0 zeros, 1 border
  bool align_corners;
};
const GridCase kGridCases[] = {{1, 0, false}, {0, 0, false}, {0, 1, true}, {2, 0, false}};

std::string grid_sample_unsupported(const Shape& s) {
  if (!s.is_flat() || s.items.size() < 2) return "";
  const int64_t which = s.items.back().integer;
  const bool is_5d = s.items.size() == 6;
  if (which < 0 || which > (is_5d ? 2 : 3)) {
    return fmt::format("case {} is not one GridSampleBenchmark yields for {}-D inputs", which,
                       is_5d ? 5 : 4);
  }
  return "";
}

void grid_sample_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const GridCase g = kGridCases[d.back()];
  d.pop_back();
  std::vector<int64_t> grid = {d[0]};
  grid.insert(grid.end(), d.begin() + 2, d.end());
  grid.push_back(static_cast<int64_t>(d.size()) - 2);
  a.t = {ops::random(c, d), ops::random(c, grid).clamp(-0.9, 0.9)};
  a.i = {g.mode, g.padding, g.align_corners ? 1 : 0};
}

// ---- mrope (test_mrope.py): MropeBenchmark's configurations, booleans written 0 / 1.
const int64_t kMropeMaxPosition = 32768;

// cos_sin_cache [max_position, rotary_dim] of base 1e6, cast to the dtype.
at::Tensor cos_sin_cache(const BuildContext& c, int64_t max_position, int64_t rotary_dim,
                         double base, at::ScalarType type) {
  at::Tensor inv_freq =
      1.0 / at::pow(base, at::arange(0, rotary_dim, 2, f32(c)) / static_cast<double>(rotary_dim));
  at::Tensor freqs = at::outer(at::arange(max_position, f32(c)), inv_freq);
  return at::cat({freqs.cos(), freqs.sin()}, -1).to(type);
}

// _compute_axis_map: the pairs dealt round-robin to the t, h, w sections until each is full.
at::Tensor axis_map(const BuildContext& c, const std::vector<int64_t>& section,
                    int64_t rotary_dim) {
  std::vector<int64_t> map;
  int64_t counts[3] = {0, 0, 0};
  for (int64_t i = 0; i < rotary_dim / 2; ++i) {
    int64_t ax = i % 3;
    while (counts[ax] >= section[ax]) ax = (ax + 1) % 3;
    map.push_back(ax);
    ++counts[ax];
  }
  return at::tensor(map, at::kLong).to(c.device);
}

void mrope_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], q_heads = d[1], kv_heads = d[2], head_size = d[3], rotary = d[4];
  const std::vector<int64_t> section = {d[5], d[6], d[7]};
  const bool glm = d[10] != 0;
  a.t = {ops::random(c, {tokens, q_heads * head_size}),
         ops::random(c, {tokens, kv_heads * head_size}),
         cos_sin_cache(c, kMropeMaxPosition, rotary, 1000000.0, c.scalar_type()),
         at::randint(0, kMropeMaxPosition, {3, tokens}, c.options().dtype(at::kLong))};
  if (glm) a.t.push_back(axis_map(c, section, rotary));
  // section_t, section_h, section_w, head_size, rotary_dim, interleaved, glm, neox.
  a.i = {d[5], d[6], d[7], head_size, rotary, d[9], d[10], d[8]};
}

// _apply_rotary_emb: in float32, neox halves or gptj even / odd lanes.
at::Tensor apply_rotary_emb(const at::Tensor& x_in, const at::Tensor& cos_in,
                            const at::Tensor& sin_in, bool neox) {
  const auto acc = at_least_float(x_in);
  at::Tensor x = x_in.to(acc);
  at::Tensor cos = cos_in.unsqueeze(-2).to(acc), sin = sin_in.unsqueeze(-2).to(acc);
  at::Tensor x1, x2;
  if (neox) {
    auto h = at::chunk(x, 2, -1);
    x1 = h[0];
    x2 = h[1];
  } else {
    x1 = x.index({Ellipsis, Slice(None, None, 2)});
    x2 = x.index({Ellipsis, Slice(1, None, 2)});
  }
  at::Tensor o1 = x1 * cos - x2 * sin, o2 = x2 * cos + x1 * sin;
  if (neox) return at::cat({o1, o2}, -1).to(x_in.scalar_type());
  return at::stack({o1, o2}, -1).flatten(-2).to(x_in.scalar_type());
}

// _apply_interleaved_rope: the t lanes, with every third from 1 (h) and from 2 (w) replaced.
at::Tensor interleaved_rope(const at::Tensor& x, const std::vector<int64_t>& s) {
  at::Tensor t = x[0].clone();
  t.index_put_({Ellipsis, Slice(1, s[1] * 3, 3)}, x[1].index({Ellipsis, Slice(1, s[1] * 3, 3)}));
  t.index_put_({Ellipsis, Slice(2, s[2] * 3, 3)}, x[2].index({Ellipsis, Slice(2, s[2] * 3, 3)}));
  return t;
}

// torch_mrope: q and k are both rotated (and timed); query is what is verified.
at::Tensor mrope(A& a) {
  const std::vector<int64_t> section = {a.i[0], a.i[1], a.i[2]};
  const int64_t head_size = a.i[3], rotary = a.i[4];
  const bool interleaved = a.i[5] != 0, glm = a.i[6] != 0, neox = a.i[7] != 0;
  at::Tensor cos_sin = a.t[2].index({a.t[3]});
  auto halves = cos_sin.chunk(2, -1);
  at::Tensor cos = halves[0], sin = halves[1];
  if (interleaved && glm) {
    at::Tensor idx = a.t[4].index({None, None, Slice()}).expand({1, cos.size(1), -1});
    cos = at::gather(cos, 0, idx).squeeze(0);
    sin = at::gather(sin, 0, idx).squeeze(0);
  } else if (interleaved) {
    cos = interleaved_rope(cos, section);
    sin = interleaved_rope(sin, section);
  } else {
    auto pick = [&section](const at::Tensor& x) {
      auto parts = x.split_with_sizes(section, -1);
      return at::cat({parts[0][0], parts[1][1], parts[2][2]}, -1);
    };
    cos = pick(cos);
    sin = pick(sin);
  }
  auto rotate = [&](const at::Tensor& x) {
    at::Tensor v = x.view({x.size(0), -1, head_size});
    at::Tensor rot = apply_rotary_emb(v.index({Ellipsis, Slice(None, rotary)}), cos, sin, neox);
    return at::cat({rot, v.index({Ellipsis, Slice(rotary, None)})}, -1).reshape(x.sizes());
  };
  at::Tensor query = rotate(a.t[0]);
  at::Tensor key = rotate(a.t[1]);
  (void)key;
  return query;
}

// ---- DeepSeek-V4 q-norm + rope + kv-rope + cache insert (its test's PyTorch fallback).
const int64_t kDsHeadDim = 512, kDsRopeDim = 64, kDsNopeDim = kDsHeadDim - kDsRopeDim;

// _make_cos_sin_cache: float32 [max_pos, rope_dim], base 10000.
at::Tensor ds_cos_sin_cache(const BuildContext& c, int64_t max_pos) {
  return cos_sin_cache(c, max_pos, kDsRopeDim, 10000.0, at::kFloat);
}

// _make_inputs: q [N, H, 512], kv [N, 512], one 16-row cache block more than N needs.
void ds_insert_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t n = d[0], heads = d[1], block = 16;
  auto longs = c.options().dtype(at::kLong);
  a.t = {ops::random(c, {n, heads, kDsHeadDim}),
         ops::random(c, {n, kDsHeadDim}),
         at::zeros({(n + block - 1) / block + 1, block, kDsHeadDim}, c.options()),
         at::arange(n, longs),
         at::arange(n, longs),
         ds_cos_sin_cache(c, std::max<int64_t>(4096, n))};
  a.f = {1e-6};
  a.i = {block};
}

// _rms_norm_no_weight: float32 x * rsqrt(mean(x^2) + eps), back to the input's dtype (bfloat16).
at::Tensor rms_norm_no_weight(const at::Tensor& x, double eps) {
  at::Tensor x32 = x.to(at_least_float(x));
  at::Tensor variance = x32.pow(2).mean(-1, /*keepdim=*/true);
  return (x32 * at::rsqrt(variance + eps)).to(x.scalar_type());
}

// _gptj_rope: the rope lanes after nope_dim rotated in even / odd pairs, in float32, written back
// into a clone in the input's dtype.
at::Tensor gptj_rope(const at::Tensor& x, const at::Tensor& cache, const at::Tensor& positions) {
  const int64_t half = (x.size(-1) - kDsNopeDim) / 2;
  at::Tensor cos = cache.index({positions, Slice(None, half)});
  at::Tensor sin = cache.index({positions, Slice(half, None)});
  if (x.dim() == 3) {
    cos = cos.unsqueeze(1);
    sin = sin.unsqueeze(1);
  }
  const auto acc = at_least_float(x);
  at::Tensor even = x.index({Ellipsis, Slice(kDsNopeDim, None, 2)}).to(acc);
  at::Tensor odd = x.index({Ellipsis, Slice(kDsNopeDim + 1, None, 2)}).to(acc);
  at::Tensor result = x.clone();
  result.index_put_({Ellipsis, Slice(kDsNopeDim, None, 2)},
                    (even * cos - odd * sin).to(x.scalar_type()));
  result.index_put_({Ellipsis, Slice(kDsNopeDim + 1, None, 2)},
                    (even * sin + odd * cos).to(x.scalar_type()));
  return result;
}

// _pytorch_ref: q normalised and roped in place; kv roped and written to its slots of k_cache.
// The reference writes slot by slot after slot_mapping[i].item() (skipping negative slots); the
// input_fn's slots are arange(N), all valid, so one index_copy_ into the flattened cache writes
// the same rows without N host syncs, and the case stays capturable.
at::Tensor ds_qnorm_rope_kv_insert(A& a) {
  at::Tensor &q = a.t[0], &kv = a.t[1], &k_cache = a.t[2];
  const at::Tensor &slots = a.t[3], &positions = a.t[4], &cache = a.t[5];
  const int64_t n_insert = slots.size(0);
  q.copy_(gptj_rope(rms_norm_no_weight(q, a.f[0]), cache, positions));
  at::Tensor kv_roped =
      gptj_rope(kv.index({Slice(None, n_insert)}), cache, positions.index({Slice(None, n_insert)}));
  k_cache.view({-1, k_cache.size(-1)}).index_copy_(0, slots, kv_roped);
  return q;
}

// ---- fused_indexer_q_rope_quant (test_fused_indexer_q_rope_quant.py): head dim 128, rope 64.
const int64_t kIdxHeadDim = 128, kIdxRopeDim = 64, kIdxMaxPos = 4096;

void indexer_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], heads = d[1], half = kIdxRopeDim / 2;
  at::Tensor inv_freq = 1.0 / at::pow(10000.0, at::arange(0, half, f32(c)) / half);
  at::Tensor freqs = at::outer(at::arange(kIdxMaxPos, f32(c)), inv_freq);
  a.t = {at::randint(0, kIdxMaxPos, {tokens}, c.options().dtype(at::kLong)),
         ops::random(c, {tokens, heads, kIdxHeadDim}),
         at::cat({freqs.cos(), freqs.sin()}, -1).to(at::kBFloat16),
         ops::random(c, {tokens, heads})};
  a.f = {std::pow(kIdxHeadDim, -0.5), std::pow(static_cast<double>(heads), -0.5)};
}

// _reference_op's fp8 path (use_fp4 runs on capability 10 only): the gptj tail rotation with its
// bfloat16 rounding, then a power-of-two scale per head from the amax, q / scale in float8_e4m3fn
// and the scaled weights. q_fp8 is verified; weights_out is computed and timed.
at::Tensor indexer_q_rope_quant(A& a) {
  const at::Tensor &positions = a.t[0], &q = a.t[1], &cache = a.t[2], &weights = a.t[3];
  const int64_t nope = kIdxHeadDim - kIdxRopeDim, half = kIdxRopeDim / 2;
  const auto acc = at_least_float(q);
  at::Tensor cos_sin = cache.index_select(0, positions).to(acc);
  at::Tensor cos = cos_sin.index({Slice(), Slice(None, half)}).unsqueeze(1);
  at::Tensor sin = cos_sin.index({Slice(), Slice(half, None)}).unsqueeze(1);
  // q.float() copies a bfloat16 q; the copy keeps the float64 reference from writing its input.
  at::Tensor q_rot = q.to(acc, /*non_blocking=*/false, /*copy=*/true);
  at::Tensor tail = q_rot.index({Ellipsis, Slice(nope, None)});
  // Views of q_rot, as in the reference: odd's update reads the even lanes already rotated.
  at::Tensor even = tail.index({Ellipsis, Slice(0, None, 2)});
  at::Tensor odd = tail.index({Ellipsis, Slice(1, None, 2)});
  q_rot.index_put_({Ellipsis, Slice(nope, None, 2)},
                   (even * cos - odd * sin).to(at::kBFloat16).to(acc));
  q_rot.index_put_({Ellipsis, Slice(nope + 1, None, 2)},
                   (odd * cos + even * sin).to(at::kBFloat16).to(acc));
  at::Tensor amax = q_rot.abs().amax(-1);
  at::Tensor q_scale = at::exp2(at::ceil(at::log2(amax.clamp_min(1e-4) / 448.0)));
  at::Tensor q_fp8 = (q_rot / q_scale.unsqueeze(-1)).to(at::kFloat8_e4m3fn);
  at::Tensor weights_out = weights.to(acc) * q_scale * a.f[0] * a.f[1];
  (void)weights_out;
  return q_fp8;
}

// ---- mHC (flag_gems/fused/mhc): hc_mult 4 unless the row says otherwise.
const int64_t kHcMult = 4;

// mhc_post_ref: x [N, H] bf16, residual [N, 4, H] bf16, post_layer_mix [N, 4, 1] and
// comb_res_mix [N, 4, 4] float32: x * post + comb^T @ residual, back to x's dtype.
void mhc_post_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t n = d[0], h = d[1];
  a.t = {ops::random(c, {n, h}), ops::random(c, {n, kHcMult, h}),
         ops::random_as(c, {n, kHcMult, 1}, at::kFloat),
         ops::random_as(c, {n, kHcMult, kHcMult}, at::kFloat)};
}

at::Tensor mhc_post(A& a) {
  const at::Tensor &x = a.t[0], &residual = a.t[1];
  at::Tensor y = x.unsqueeze(-2) * a.t[2] + at::bmm(a.t[3].mT(), residual.to(at_least_float(x)));
  return y.to(x.scalar_type());
}

// sinkhorn_normalize_ref: softmax over rows, then alternate column and row normalisation.
at::Tensor sinkhorn_normalize(at::Tensor x, int64_t repeat, double eps) {
  x = x.softmax(-1) + eps;
  x = x / (x.sum(-2, /*keepdim=*/true) + eps);
  for (int64_t i = 0; i < repeat - 1; ++i) {
    x = x / (x.sum(-1, /*keepdim=*/true) + eps);
    x = x / (x.sum(-2, /*keepdim=*/true) + eps);
  }
  return x;
}

// MHCPreBenchmark: residual [N, 4, hidden] (bf16 of float32 scaled by 1 + 0.01 * stream), fn
// [24, 4 * hidden] float32 of 1e-4 scale, hc_scale [3] and hc_base [24] of 0.1 scale; eps 1e-6,
// post_mult 1, sinkhorn repeat 10.
void mhc_pre_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t n = d[0], hidden = d[1], mult3 = kHcMult * 2 + kHcMult * kHcMult;
  at::Tensor stream = (1 + at::arange(kHcMult, f32(c)).mul(0.01)).view({1, -1, 1});
  a.t = {(at::randn({n, kHcMult, hidden}, f32(c)) * stream).to(c.scalar_type()),
         (at::randn({mult3, kHcMult, hidden}, f32(c)) * 1e-4 * stream).flatten(1, 2),
         at::randn({3}, f32(c)) * 0.1, at::randn({mult3}, f32(c)) * 0.1};
  a.f = {1e-6, 1e-6, 1e-6, 1.0};
  a.i = {10};
}

// mhc_pre_ref: mixes = rms-scaled residual @ fn^T, scaled and biased; pre, post and the
// sinkhorn-normalised residual mix; layer_input (pre-weighted sum of the streams, bf16) is
// verified, post_mix and res_mix are computed and timed.
at::Tensor mhc_pre(A& a) {
  const at::Tensor &residual = a.t[0], &fn = a.t[1], &hc_scale = a.t[2], &hc_base = a.t[3];
  const double rms_eps = a.f[0], pre_eps = a.f[1], sinkhorn_eps = a.f[2], post_mult = a.f[3];
  const int64_t m = residual.size(-2);
  at::Tensor flat = residual.flatten(-2, -1).to(at_least_float(residual));
  at::Tensor sqrsum = flat.square().sum(-1);
  at::Tensor mixes = at::matmul(flat, fn.t()) *
                     (sqrsum.unsqueeze(-1) / static_cast<double>(fn.size(-1)) + rms_eps).rsqrt();
  at::Tensor scale =
      at::cat({hc_scale[0].expand({m}), hc_scale[1].expand({m}), hc_scale[2].expand({m * m})});
  mixes = mixes * scale + hc_base;
  at::Tensor pre_mix = mixes.index({Slice(), Slice(None, m)}).sigmoid().unsqueeze(-1) + pre_eps;
  at::Tensor post_mix =
      (mixes.index({Slice(), Slice(m, 2 * m)}).sigmoid() * post_mult).unsqueeze(-1);
  at::Tensor res_mix = mixes.index({Slice(), Slice(2 * m, None)}).view({-1, m, m});
  res_mix = sinkhorn_normalize(res_mix, a.i[0], sinkhorn_eps);
  (void)post_mix;
  return (residual * pre_mix).sum(-2).to(at::kBFloat16);
}

// MHCSplitSinkhornBenchmark: (batch, seqlen, hc_mult), mixes [batch, seqlen, (2 + m) m] float32,
// hc_scale [3] and hc_base of 0.1 scale, 20 iterations, eps 1e-6.
void sinkhorn_split_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t m = d[2], mix_hc = (2 + m) * m;
  a.t = {ops::random(c, {d[0], d[1], mix_hc}), ops::random(c, {3}) * 0.1,
         ops::random(c, {mix_hc}) * 0.1};
  a.i = {m, 20};
  a.f = {1e-6};
}

// mhc_split_sinkhorn_torch_ref: pre, post and the sinkhorn of comb; comb is verified.
at::Tensor sinkhorn_split(A& a) {
  const at::Tensor &mixes = a.t[0], &hc_scale = a.t[1], &hc_base = a.t[2];
  const int64_t m = a.i[0], iters = a.i[1];
  const double eps = a.f[0];
  auto outer = mixes.sizes().slice(0, mixes.dim() - 1).vec();
  at::Tensor pre = at::sigmoid(mixes.index({Ellipsis, Slice(None, m)}) * hc_scale[0] +
                               hc_base.index({Slice(None, m)})) +
                   eps;
  at::Tensor post = 2 * at::sigmoid(mixes.index({Ellipsis, Slice(m, 2 * m)}) * hc_scale[1] +
                                    hc_base.index({Slice(m, 2 * m)}));
  auto comb_shape = outer;
  comb_shape.push_back(m);
  comb_shape.push_back(m);
  at::Tensor comb = mixes.index({Ellipsis, Slice(2 * m, None)}).view(comb_shape) * hc_scale[2] +
                    hc_base.index({Slice(2 * m, None)}).view({m, m});
  at::Tensor row_max = std::get<0>(comb.max(-1, /*keepdim=*/true));
  comb = (comb - row_max).exp();
  comb = comb / comb.sum(-1, /*keepdim=*/true) + eps;
  comb = comb / (comb.sum(-2, /*keepdim=*/true) + eps);
  for (int64_t i = 0; i < iters - 1; ++i) {
    comb = comb / (comb.sum(-1, /*keepdim=*/true) + eps);
    comb = comb / (comb.sum(-2, /*keepdim=*/true) + eps);
  }
  (void)pre;
  (void)post;
  return comb;
}

// MHCBwdBenchmark: R = sinkhorn_forward(M ~ U(0, 4), 20 iterations) [seqlen, n, n], dR ~ N(0, 1).
void mhc_bwd_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  at::Tensor r = (at::rand({d[0], d[1], d[1]}, c.options()) * 4).exp();
  for (int i = 0; i < 20; ++i) {
    r = r / r.sum(-2, /*keepdim=*/true);
    r = r / r.sum(-1, /*keepdim=*/true);
  }
  a.t = {r, at::randn_like(r)};
}

// mhc_bwd_ref: the sinkhorn backward by 2n conjugate-gradient iterations (EPS 1e-10).
at::Tensor mhc_bwd(A& a) {
  const double kEps = 1e-10;
  const auto acc = at_least_float(a.t[0]);
  at::Tensor r = a.t[0].to(acc), dr = a.t[1].to(acc);
  const int64_t iters = 2 * r.size(1);
  at::Tensor rdr = r * dr;
  at::Tensor b1 = rdr.sum(-1), b2 = rdr.sum(-2);
  at::Tensor x1 = at::zeros_like(b1), x2 = at::zeros_like(b2);
  auto matvec = [&r](const at::Tensor& u1, const at::Tensor& u2) {
    return std::make_pair((r * u2.unsqueeze(-2)).sum(-1) + u1, (r * u1.unsqueeze(-1)).sum(-2) + u2);
  };
  at::Tensor r1 = b1.clone(), r2 = b2.clone();
  at::Tensor p1 = r1.clone(), p2 = r2.clone();
  at::Tensor r_normsq = (r1 * r1 + r2 * r2).sum(-1);
  for (int64_t i = 0; i < iters; ++i) {
    auto [ap1, ap2] = matvec(p1, p2);
    at::Tensor pap = (p1 * ap1 + p2 * ap2).sum(-1);
    at::Tensor alpha = (r_normsq / (pap + kEps)).unsqueeze(-1);
    x1 = x1 + alpha * p1;
    x2 = x2 + alpha * p2;
    r1 = r1 - alpha * ap1;
    r2 = r2 - alpha * ap2;
    at::Tensor r_new = (r1 * r1 + r2 * r2).sum(-1);
    at::Tensor beta = (r_new / (r_normsq + kEps)).unsqueeze(-1);
    p1 = r1 + beta * p1;
    p2 = r2 + beta * p2;
    r_normsq = r_new;
  }
  return (dr - x1.unsqueeze(-1) - x2.unsqueeze(-2)) * r;
}

// ---- RWKV (test_rwkv_ka_fusion.py, test_rwkv_mm_sparsity.py).
const int64_t kRwkvHeads = 8, kRwkvHeadSize = 64;

void rwkv_ka_inputs(const BuildContext& c, A& a) {
  const int64_t t = c.dims()[0], ch = kRwkvHeads * kRwkvHeadSize;
  a.t = {ops::random(c, {t, ch}), ops::random(c, {ch}), ops::random(c, {t, ch}),
         ops::random(c, {ch})};
  a.i = {kRwkvHeads, kRwkvHeadSize};
}

// torch_rwkv_ka: o_kk = per-head L2 normalise(k * kk) (F.normalize, eps 1e-12), o_k =
// k * (1 + (a - 1) * ka), o_kka = o_kk * a; all three are computed and timed, o_kka is verified.
at::Tensor rwkv_ka(A& a) {
  const at::Tensor &k = a.t[0], &kk = a.t[1], &x = a.t[2], &ka = a.t[3];
  const int64_t t = k.size(0), heads = a.i[0], n = a.i[1];
  at::Tensor v = (k * kk).view({t, heads, n});
  at::Tensor o_kk =
      (v / v.norm(2, {-1}, /*keepdim=*/true).clamp_min(1e-12).expand_as(v)).view({t, heads * n});
  at::Tensor o_k = k * (1 + (x - 1) * ka);
  (void)o_k;
  return o_kk * x;
}

// _input_fn: V [16384, 4096], k = relu(k - its 0.9 quantile of |k|) (about 10% non-zero).
void rwkv_sparsity_inputs(const BuildContext& c, A& a) {
  const int64_t n = 16384, dim = 4096;
  at::Tensor k = ops::random(c, {n});
  at::Tensor threshold = at::quantile(k.abs().to(at::kFloat), 0.9).to(c.scalar_type());
  a.t = {at::relu(k - threshold), ops::random(c, {n, dim})};
}

// ---- gated delta rule (linear attention), as FlagGems' and vLLM's fused_recurrent kernel runs
// it per sequence and value head, in float32: h *= exp(g); v -= k^T h; v *= beta; h += k v^T;
// o = q^T h (q scaled), the q / k head of value head j being j / (HV / H). Sequences of equal
// length only: `q` [N, L, H, K], `v` [N, L, HV, V], `g`, `beta` [N, L, HV], h0 [N, HV, K, V].
// With `qk_l2norm` (use_qk_l2norm_in_kernel), each q and k row is first scaled by
// rsqrt(sum(x^2) + 1e-6), as the kernel does. Returns o [N, L, HV, V] in q's dtype and the final
// state in float32.
std::pair<at::Tensor, at::Tensor> gated_delta_rule(const at::Tensor& q, const at::Tensor& k,
                                                   const at::Tensor& v, const at::Tensor& g,
                                                   const at::Tensor& beta, double scale,
                                                   const at::Tensor& h0, bool qk_l2norm = false) {
  const auto acc = at_least_float(q);
  const int64_t group = v.size(2) / q.size(2);
  auto row = [&](const at::Tensor& x, int64_t t) {
    at::Tensor r = x.select(1, t).to(acc);
    if (qk_l2norm) r = r * at::rsqrt(r.square().sum(-1, /*keepdim=*/true) + 1e-6);
    return r.repeat_interleave(group, 1);
  };
  at::Tensor h = h0.to(acc);
  std::vector<at::Tensor> out;
  for (int64_t t = 0; t < q.size(1); ++t) {
    at::Tensor bq = row(q, t) * scale;  // [N, HV, K]
    at::Tensor bk = row(k, t);
    at::Tensor bv = v.select(1, t).to(acc);  // [N, HV, V]
    h = h * g.select(1, t).to(acc).exp().unsqueeze(-1).unsqueeze(-1);
    bv = bv - at::matmul(bk.unsqueeze(-2), h).squeeze(-2);
    bv = bv * beta.select(1, t).to(acc).unsqueeze(-1);
    h = h + bk.unsqueeze(-1) * bv.unsqueeze(-2);
    out.push_back(at::matmul(bq.unsqueeze(-2), h).squeeze(-2).to(q.scalar_type()));
  }
  return {at::stack(out, 1), h};
}

// FusedRecurrentGatedDeltaRuleBenchmark (T,): mixed_qkv [T, 2048] split into non-contiguous
// q, k [1, T, 4, 128] and v [1, T, 8, 128] (H 16, HV 32, K = V = 128 over tp 4), g = logsigmoid,
// beta = sigmoid(rand), cu_seqlens = arange(T + 1) (T one-token sequences), initial_state zeros
// [1024, 8, 128, 128], ssm_state_indices zeros(T), scale 128^-0.5. Last, a [T, 8, 128, 128] buffer
// that is not FlagGems': see fused_recurrent.
void fused_recurrent_inputs(const BuildContext& c, A& a) {
  const int64_t t = c.dims()[0], heads = 4, v_heads = 8, dk = 128, dv = 128;
  auto longs = c.options().dtype(at::kLong);
  at::Tensor mixed = ops::random(c, {t, 2 * heads * dk + v_heads * dv});
  auto parts = mixed.split_with_sizes({heads * dk, heads * dk, v_heads * dv}, -1);
  a.t = {parts[0].view({1, t, -1, dk}),
         parts[1].view({1, t, -1, dk}),
         parts[2].view({1, t, -1, dv}),
         at::log_sigmoid(ops::random(c, {1, t, v_heads})),
         at::rand({1, t, v_heads}, c.options()).sigmoid(),
         at::zeros({1024, v_heads, dk, dv}, c.options()),
         at::arange(t + 1, longs),
         at::zeros({t}, longs),
         at::empty({t, v_heads, dk, dv}, c.options())};
  a.f = {0.08838834764831845};
}

// fused_recurrent_gated_delta_rule_fwd(q, k, v, g, beta, scale, initial_state, True, cu_seqlens,
// ssm_state_indices, None, True), the last True L2-normalising q and k in the kernel (so does
// vLLM's, the test's baseline): each one-token sequence n starts from initial_state[idx[n]]
// and the kernel stores its state back there, in place: T stores of a [HV, K, V] state, racing
// to slot 0 here, so FlagGems' initial_state changes from call to call (and the reference's
// second call would start elsewhere than the timed one). The same T stores go to the builder's
// buffer instead, which leaves the inputs as built; o [1, T, HV, V] is verified.
at::Tensor fused_recurrent(A& a) {
  const at::Tensor &state = a.t[5], &indices = a.t[7];
  auto seqs = [](const at::Tensor& x) { return x.transpose(0, 1); };  // [1, T] -> T sequences
  at::Tensor h0 = state.index_select(0, indices);
  auto [o, h] = gated_delta_rule(seqs(a.t[0]), seqs(a.t[1]), seqs(a.t[2]), seqs(a.t[3]),
                                 seqs(a.t[4]), a.f[0], h0, /*qk_l2norm=*/true);
  a.t[8].copy_(h.to(state.scalar_type()));
  return o.transpose(0, 1);
}

// ChunkGatedDeltaRuleBenchmark (B, T, Hg, H, K, V): q ~ N(0, 1), k L2-normalised (eps 1e-6),
// v = 0.125 N(0, 1), beta = sigmoid(U(-2, 2)), g = log1p(-exp(U(log 0.01, log 0.03))),
// initial_state = 0.125 N(0, 1) [B, H, K, V], scale K^-0.5.
void chunk_inputs(const BuildContext& c, A& a) {
  auto d = c.dims();
  const int64_t b = d[0], t = d[1], hg = d[2], h = d[3], dk = d[4], dv = d[5];
  const auto type = c.scalar_type();
  at::Tensor k = at::randn({b, t, hg, dk}, f32(c));
  k = k / k.norm(2, {-1}, /*keepdim=*/true).clamp_min(1e-6).expand_as(k);
  at::Tensor decay = at::empty({b, t, h}, f32(c)).uniform_(-4.605170185988091, -3.506557897319982);
  a.t = {ops::random(c, {b, t, hg, dk}),
         k.to(type),
         (0.125 * at::randn({b, t, h, dv}, f32(c))).to(type),
         at::empty({b, t, h}, f32(c)).uniform_(-2.0, 2.0).sigmoid().to(type),
         at::log1p(-decay.exp()).to(type),
         (0.125 * at::randn({b, h, dk, dv}, f32(c))).to(type)};
  a.f = {std::pow(static_cast<double>(dk), -0.5)};
}

// _recurrent_wrapper (cu_seqlens None): the B sequences of T tokens run from a clone of
// initial_state, each writing its state to slot b (ssm_state_indices arange(B) per token); o
// [B, T, H, V] is verified.
at::Tensor chunk_recurrent(A& a) {
  at::Tensor state = a.t[5].clone();
  auto [o, h] = gated_delta_rule(a.t[0], a.t[1], a.t[2], a.t[4], a.t[3], a.f[0], state);
  state.copy_(h.to(state.scalar_type()));
  return o;
}

// ChunkGatedDeltaRuleFwdBenchmark (T,): B 1, H 4, K = V = 64, q, k, v ~ N(0, 1),
// g = logsigmoid(N(0, 1)), beta = sigmoid(rand), scale 64^-0.5, initial_state zeros.
void chunk_fwd_inputs(const BuildContext& c, A& a) {
  const int64_t t = c.dims()[0], h = 4, dk = 64, dv = 64;
  a.t = {ops::random(c, {1, t, h, dk}),
         ops::random(c, {1, t, h, dk}),
         ops::random(c, {1, t, h, dv}),
         at::log_sigmoid(ops::random(c, {1, t, h})),
         at::rand({1, t, h}, c.options()).sigmoid(),
         at::zeros({1, h, dk, dv}, c.options())};
  a.f = {std::pow(static_cast<double>(dk), -0.5)};
}

OpDef linear_attention(const std::string& name, const std::string& key, const std::string& desc,
                       BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kAttention)
      .shape_key(key)
      .shape_desc(desc)
      .inputs(std::move(inputs))
      .call(std::move(call))
      .tolerance(4)
      .aten({"aten::_to_copy", "aten::repeat_interleave.self_int", "aten::exp", "aten::mul.Tensor",
             "aten::matmul", "aten::sub.Tensor", "aten::add.Tensor", "aten::stack"});
}

OpDef mhc(const std::string& name, const std::string& key, const std::string& desc, DType dtype,
          BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kNorm)
      .dtypes({dtype})
      .shape_key(key)
      .shape_desc(desc)
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(ops::input_numel);
}

}  // namespace

std::vector<OpDef> llm_misc_ops() {
  using py_args::f;
  using py_args::flag;
  using py_args::i;
  using py_args::kw;
  using py_args::t;
  using py_args::t_or_none;
  std::vector<OpDef> ops = {
      beam_search_score("beam_search_score"),
      beam_search_score("beam_search_score_"),
      // test_fft.py: torch.fft.fft over the last dim of complex64 [M, N], N a power of two;
      // FFTBenchmark.get_tflops 5 N log2 N per row.
      OpDef("fft")
          .family(Family::kUnary)
          .dtypes(kComplexDTypes)
          .shape_key("FFTBenchmark")
          .shape_desc("M, N")
          .inputs([](const BuildContext& c, A& a) {
            auto d = c.dims();
            a.t = {at::complex(at::randn(d, f32(c)), at::randn(d, f32(c)))};
          })
          .call([](A& a) { return at::fft_fft(a.t[0]); })
          .flops([](const A& a, const at::Tensor&) {
            const int64_t n = a.t[0].size(-1);
            return static_cast<double>(a.t[0].size(0)) * 5 * n * std::log2(static_cast<double>(n));
          })
          .aten({"aten::fft_fft", "aten::_fft_c2c"})
          .python_fn("fft", {py_args::t(0)}),
      // test_grid_sample.py: F.grid_sample(inp, grid in [-0.9, 0.9], mode, padding_mode,
      // align_corners), which calls torch.grid_sampler with the modes as enums. No python_fn:
      // flag_gems.grid_sample takes mode and padding_mode as strings, which Args holds as enums.
      OpDef("grid_sample")
          .family(Family::kConv)
          .shape_key("GridSampleBenchmark")
          .shape_desc("N, C, [D,] H, W, case")
          .skip_shapes(grid_sample_unsupported)
          .inputs(grid_sample_inputs)
          .call([](A& a) { return at::grid_sampler(a.t[0], a.t[1], a.i[0], a.i[1], a.i[2] != 0); })
          .bytes([](const A& a, const at::Tensor&) {
            // GridSampleBenchmark.get_gbps: input + grid + grid.numel() * C output elements.
            const at::Tensor &x = a.t[0], &grid = a.t[1];
            return static_cast<double>(x.numel() * x.element_size() +
                                       grid.numel() * grid.element_size() +
                                       grid.numel() * x.size(1) * x.element_size());
          })
          .tolerance(2)
          .aten({"aten::grid_sampler", "aten::grid_sampler_2d", "aten::grid_sampler_3d"}),
      OpDef("mrope")
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_key("MropeBenchmark")
          .shape_desc("num_tokens, q_heads, kv_heads, head_size, rotary_dim, st, sh, sw, neox, "
                      "interleaved, glm")
          .inputs(mrope_inputs)
          .call(mrope)
          .tolerance(2)
          .aten({"aten::index.Tensor", "aten::split_with_sizes", "aten::cat", "aten::gather",
                 "aten::_to_copy", "aten::mul.Tensor", "aten::sub.Tensor", "aten::add.Tensor",
                 "aten::stack"})
          // (query, key) returned; query is compared.
          .python_fn("mrope", {t(0), t(1), t(2), t(3), i(0), i(1), i(2), i(3), i(4), flag(5),
                               flag(6), flag(7), t_or_none(4)}),
      OpDef("fused_deepseek_v4_qnorm_rope_kv_rope_insert")
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_key("FusedQnormRopeKvRopeInsertBenchmark")
          .shape_desc("num_tokens, num_heads")
          .inputs(ds_insert_inputs)
          .call(ds_qnorm_rope_kv_insert)
          .inplace()
          .tolerance(2)
          .aten({"aten::_to_copy", "aten::pow.Tensor_Scalar", "aten::mean.dim", "aten::rsqrt",
                 "aten::index.Tensor", "aten::index_put_", "aten::copy_", "aten::index_copy_"})
          // Returns None: q, written in place, is compared.
          .python_fn(
              "fused_deepseek_v4_qnorm_rope_kv_rope_insert",
              {t(0), t(1), t(2), t(3), t(4), t(5), kw("eps", f(0)), kw("cache_block_size", i(0))}),
      OpDef("fused_indexer_q_rope_quant")
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_key("FusedIndexerQRopeQuantBenchmark")
          .shape_desc("num_tokens, num_heads, use_fp4")
          .skip_shapes([](const Shape& s) -> std::string {
            if (s.is_flat() && s.items.size() == 3 && s.items[2].integer != 0) {
              return "use_fp4: FlagGems' test keeps it on compute capability 10 only";
            }
            return "";
          })
          .inputs(indexer_inputs)
          .call(indexer_q_rope_quant)
          .aten({"aten::index_select", "aten::_to_copy", "aten::index_put_", "aten::amax",
                 "aten::log2", "aten::ceil", "aten::exp2", "aten::div.Tensor"})
          // use_fp4 False: the fp4 rows are skipped. (q_fp8, weights_out); q_fp8 is compared.
          .python_fn("fused_indexer_q_rope_quant", {t(0), t(1), t(2), t(3), f(0), f(1), false}),
      mhc("mhc_post", "MHCPostBenchmark", "N, H", DType::kBFloat16, mhc_post_inputs, mhc_post)
          .family(Family::kBlas)
          .aten({"aten::mul.Tensor", "aten::bmm", "aten::add.Tensor", "aten::_to_copy"})
          .python_fn("mhc_post", {t(0), t(1), t(2), t(3)}),
      mhc("mhc_pre", "MHCPreBenchmark", "N, hidden_size", DType::kBFloat16, mhc_pre_inputs, mhc_pre)
          .tolerance(2)
          .aten({"aten::mm", "aten::rsqrt", "aten::sigmoid", "aten::_softmax",
                 "aten::sum.dim_IntList", "aten::div.Tensor"})
          // (post_mix, comb_mix, layer_input); layer_input is compared.
          .python_fn("mhc_pre", {t(0), t(1), t(2), t(3), f(0), f(1), f(2), f(3), i(0)}, 2),
      mhc("hc_split_sinkhorn_forward", "MHCSplitSinkhornBenchmark", "batch, seqlen, hc_mult",
          DType::kFloat32, sinkhorn_split_inputs, sinkhorn_split)
          .aten({"aten::sigmoid", "aten::max.dim", "aten::exp", "aten::sum.dim_IntList",
                 "aten::div.Tensor"})
          // Not exported by flag_gems.fused; (pre, post, comb), comb is compared.
          .python_fn("fused.mhc.hc_split_sinkhorn", {t(0), t(1), t(2), i(0), i(1), f(0)}, 2),
      mhc("mhc_bwd", "MHCBwdBenchmark", "seqlen, n_stream", DType::kFloat32, mhc_bwd_inputs,
          mhc_bwd)
          .tolerance(4)
          .aten({"aten::mul.Tensor", "aten::sum.dim_IntList", "aten::div.Tensor",
                 "aten::add.Tensor", "aten::sub.Tensor"})
          .python_fn("mhc_bwd", {t(0), t(1)}),
      OpDef("rwkv_ka_fusion")
          .family(Family::kNorm)
          .shape_keys({"RWKVBenchmark", "GenericBenchmark"})
          .shape_desc("T")
          .inputs(rwkv_ka_inputs)
          .call(rwkv_ka)
          .flops(ops::input_numel)
          .tolerance(2)
          .aten({"aten::mul.Tensor", "aten::linalg_vector_norm", "aten::clamp_min",
                 "aten::div.Tensor", "aten::sub.Tensor", "aten::add.Tensor"})
          // (o_k, o_kk, o_kka); o_kka is compared.
          .python_fn("rwkv_ka_fusion", {t(0), t(1), t(2), t(3), i(0), i(1)}, 2),
      // torch_rwkv_mm_sparsity: torch.mv(V^T, k); the shape row is not read by the input_fn.
      OpDef("rwkv_mm_sparsity")
          .family(Family::kBlas)
          .shape_keys({"RWKVSparsityBenchmark", "GenericBenchmark"})
          .inputs(rwkv_sparsity_inputs)
          .call([](A& a) { return at::mv(a.t[1].t(), a.t[0]); })
          .flops([](const A& a, const at::Tensor&) { return 2.0 * a.t[1].numel(); })
          .tolerance(4)
          .aten({"aten::mv"})
          .python_fn("rwkv_mm_sparsity", {py_args::t(0), py_args::t(1)}),
      linear_attention("fused_recurrent_gated_delta_rule", "FusedRecurrentGatedDeltaRuleBenchmark",
                       "T", fused_recurrent_inputs, fused_recurrent)
          .dtypes({DType::kBFloat16})
          .more_shapes([] {
            std::vector<Shape> shapes;
            for (int64_t t :
                 {1,   2,   4,   8,   16,  24,  32,  40,  48,  56,  72,  80,  88,  96,  104, 112,
                  120, 128, 136, 144, 152, 160, 168, 176, 192, 200, 208, 216, 224, 232, 240, 248,
                  272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496}) {
              shapes.push_back({t});
            }
            return shapes;
          }())
          .aliases({"fused_recurrent_gated_delta_rule_fwd"})
          // (o, final_state); o is compared.
          .python_fn("fused_recurrent_gated_delta_rule_fwd",
                     {t(0), t(1), t(2), t(3), t(4), f(0), t(5), true, t(6), t(7), nullptr, true}),
      linear_attention("chunk_gated_delta_rule", "ChunkGatedDeltaRuleBenchmark",
                       "B, T, Hg, H, K, V", chunk_inputs, chunk_recurrent)
          .dtypes({DType::kBFloat16, DType::kFloat16})
          // (o, final_state); o is compared.
          .python_fn(
              "chunk_gated_delta_rule",
              {t(0), t(1), t(2), t(3), t(4), kw("BT", 64), kw("initial_state", t(5)),
               kw("output_final_state", true), kw("cu_seqlens", nullptr), kw("head_first", false),
               kw("scale", f(0)), kw("use_qk_l2norm_in_kernel", false)}),
      linear_attention(
          "chunk_gated_delta_rule_fwd", "ChunkGatedDeltaRuleFwdBenchmark", "T", chunk_fwd_inputs,
          [](A& a) {
            return gated_delta_rule(a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], a.f[0], a.t[5]).first;
          })
          .dtypes({DType::kBFloat16, DType::kFloat16})
          .more_shapes({{64}, {128}, {256}, {512}, {1024}})
          // (g, o, A, final_state, ...); o is compared.
          .python_fn("chunk_gated_delta_rule_fwd",
                     {t(0), t(1), t(2), t(3), t(4), f(0), t(5), true, nullptr}, 1),
  };
  return ops;
}

}  // namespace caliber
