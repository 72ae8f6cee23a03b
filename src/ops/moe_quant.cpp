// MoE routing, expert GEMMs and FP8 quantisation marks of FlagGems whose test holds a torch
// reference: the baseline is that reference ported call for call into ATen, on the test's inputs,
// shapes and dtypes (the marks whose baseline is vLLM, DeepGEMM or FlagGems' own op are in
// ops/dismiss.yaml). Where a reference casts to float32 only to compute, the cast keeps float64
// for --verify's reference; where it reads float32 bits (the ue8m0 scales) it stays float32.
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/bincount.h>
#include <ATen/ops/bitwise_and.h>
#include <ATen/ops/bitwise_left_shift.h>
#include <ATen/ops/bitwise_or.h>
#include <ATen/ops/bitwise_right_shift.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/ceil.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/cumsum.h>
#include <ATen/ops/div.h>
#include <ATen/ops/einsum.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/exp2.h>
#include <ATen/ops/full.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/log2.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/repeat_interleave.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/softplus.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/topk.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <fmt/format.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

using at::indexing::None;
using at::indexing::Slice;

constexpr double kFp8Max = 448.0;  // torch.finfo(torch.float8_e4m3fn).max

// float32 where a reference casts to it, kept float64 for --verify's float64 reference.
at::ScalarType at_least_float(const at::Tensor& t) {
  return at::promote_types(t.scalar_type(), at::kFloat);
}

at::Tensor shr(const at::Tensor& t, int64_t bits) { return at::bitwise_right_shift(t, bits); }
at::Tensor shl(const at::Tensor& t, int64_t bits) { return at::bitwise_left_shift(t, bits); }
at::Tensor band(const at::Tensor& t, int64_t mask) { return at::bitwise_and(t, mask); }

// test_fp8_einsum / test_stage_deepseek_v4_mega_moe_inputs's _ceil_to_ue8m0: float32 scales
// rounded up to a power of two through their exponent bits.
at::Tensor ceil_to_ue8m0(const at::Tensor& x) {
  at::Tensor bits = x.abs().to(at::kFloat).view(at::kInt);
  at::Tensor exp = band(shr(bits, 23), 0xFF) + band(bits, 0x7FFFFF).to(at::kBool).to(at::kInt);
  return shl(exp.clamp(1, 254), 23).view(at::kFloat);
}

// test_topk_softplus_sqrt.py: (num_tokens, num_experts, topk), bfloat16 gating, float32
// correction bias, and the three outputs the op writes, in the input_fn's order.
void topk_softplus_sqrt_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], experts = d[1], topk = d[2];
  auto f32 = c.options().dtype(at::kFloat);
  auto i32 = c.options().dtype(at::kInt);
  a.t = {at::empty({tokens, topk}, f32), at::empty({tokens, topk}, i32),
         at::empty({tokens, topk}, i32), at::randn({tokens, experts}, c.options()),
         at::randn({experts}, f32)};
  a.i = {1};    // renormalize
  a.f = {1.0};  // routed_scaling_factor
}

// _torch_topk_softplus_sqrt_ref: sqrt(softplus) scores, experts chosen on scores + bias, weighted
// by the unbiased scores, renormalised, written into the weight / id / token-expert buffers.
at::Tensor topk_softplus_sqrt(Args& a) {
  at::Tensor &weights = a.t[0], &ids = a.t[1], &token_expert = a.t[2];
  const at::Tensor& gating = a.t[3];
  const int64_t tokens = gating.size(0), topk = weights.size(1);
  at::Tensor scores = at::softplus(gating.to(at_least_float(gating))).sqrt();
  at::Tensor choice = scores + a.t[4].unsqueeze(0);
  at::Tensor top_ids = std::get<1>(at::topk(choice, topk, -1, /*largest=*/true, /*sorted=*/true));
  at::Tensor top_weights = scores.gather(1, top_ids.to(at::kLong));
  if (a.i[0] != 0) top_weights = top_weights / top_weights.sum(-1, /*keepdim=*/true);
  if (a.f[0] != 1.0) top_weights = top_weights * a.f[0];
  weights.copy_(top_weights.to(at_least_float(weights)));
  ids.copy_(top_ids.to(at::kInt));
  auto longs = gating.options().dtype(at::kLong);
  at::Tensor tei =
      at::arange(tokens, longs).unsqueeze(1) * topk + at::arange(topk, longs).unsqueeze(0);
  token_expert.copy_(tei.to(at::kInt));
  return weights;
}

// torch_per_token_group_quant_fp8_ref: per group of `group_size`, scale amax / 448 (optionally
// rounded up to a power of two), x / scale clamped and cast to float8_e4m3fn.
at::Tensor per_token_group_quant_fp8(Args& a) {
  const at::Tensor& x = a.t[0];
  const int64_t group_size = a.i[0];
  at::Tensor groups = x.reshape({x.numel() / group_size, group_size});
  at::Tensor amax = std::get<0>(groups.abs().max(-1, /*keepdim=*/true)).clamp_min(1e-10);
  at::Tensor scale = amax.to(at_least_float(amax)) / kFp8Max;
  if (a.i[1] != 0) {
    at::Tensor min_val = at::scalar_tensor(1e-10, scale.options());
    scale = at::exp2(at::ceil(at::log2(at::maximum(scale.abs(), min_val))));
  }
  at::Tensor q = (groups / scale).clamp(-kFp8Max, kFp8Max).to(at::kFloat8_e4m3fn);
  // The reference also returns the scales reshaped to (..., d / group_size); q is verified.
  (void)scale.reshape({x.size(0), x.size(-1) / group_size});
  return q.reshape(x.sizes());
}

// torch_act_quant (test_act_quant.py): per block of the last dim, in float32, scale amax / 448
// with amax >= 1e-4; the "ue8m0" format rounds the scale up to a power of two through its bits.
at::Tensor act_quant(Args& a) {
  const at::Tensor& x = a.t[0];
  const int64_t block = a.i[0], n = x.size(-1);
  at::Tensor x2d = x.view({-1, n});
  const int64_t m = x2d.size(0), blocks = n / block;
  at::Tensor blocked = x2d.view({m, blocks, block}).to(at::kFloat);
  at::Tensor amax = blocked.abs().amax(-1).clamp_min(1e-4);
  at::Tensor scale = amax * (1.0 / kFp8Max);
  if (a.i[1] != 0) {
    at::Tensor bits = scale.view(at::kInt);
    at::Tensor log2_ceil =
        band(shr(bits, 23), 0xFF) - 127 + band(bits, (1 << 23) - 1).ne(0).to(at::kInt);
    scale = shl(log2_ceil.to(at::kInt) + 127, 23).view(at::kFloat);
  }
  at::Tensor y = (blocked * (1.0 / scale.unsqueeze(-1))).clamp(-kFp8Max, kFp8Max);
  // The reference also returns the float32 scales viewed as (..., blocks); y is verified.
  (void)scale.view({m, blocks});
  return y.view({m, n}).to(at::kFloat8_e4m3fn).view(x.sizes());
}

std::string act_quant_unsupported(const Shape& s) {
  if (!s.is_flat() || s.items.size() != 4) return "";
  if (s.items[1].integer % s.items[2].integer != 0) {
    return fmt::format("last dim {} not a multiple of block_size {} (torch_act_quant asserts it)",
                       s.items[1].integer, s.items[2].integer);
  }
  return "";
}

// test_act_quant.py's set_more_shapes: its SHAPES (M x N) for each parametrisation.
std::vector<Shape> act_quant_more_shapes() {
  std::vector<Shape> shapes;
  for (int64_t ue8m0 : {0, 1}) {
    for (int64_t block : {64, 128}) {
      for (int64_t m : {1, 40, 164, 512, 3454, 12027, 38594}) {
        for (int64_t n : {128, 896, 2048, 8192}) shapes.push_back({{m, n, block, ue8m0}});
      }
    }
  }
  return shapes;
}

// test_stage_deepseek_v4_mega_moe_inputs.py: (num_tokens, hidden_size, top_k) with hidden states
// N(0, 17^2) in the dtype, three 32-wide groups set to 0 and +-1e-6, 256 experts' ids, float32
// weights, and the buffers the op fills.
void stage_mega_moe_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], hidden = d[1], topk = d[2];
  auto f32 = c.options().dtype(at::kFloat);
  at::Tensor hidden_states = (at::randn({tokens, hidden}, f32) * 17.0).to(c.scalar_type());
  hidden_states.index_put_({0, Slice(None, 32)}, at::Scalar(0.0));
  hidden_states.index_put_({1, Slice(32, 64)}, at::Scalar(1.0e-6));
  hidden_states.index_put_({2, Slice(64, 96)}, at::Scalar(-1.0e-6));
  a.t = {hidden_states,
         at::randint(0, 256, {tokens, topk}, c.options().dtype(at::kInt)),
         at::randn({tokens, topk}, f32),
         at::empty({tokens, hidden}, c.options().dtype(at::kFloat8_e4m3fn)),
         at::empty({tokens, hidden / 128}, c.options().dtype(at::kInt)),
         at::empty({tokens, topk}, c.options().dtype(at::kLong)),
         at::empty({tokens, topk}, f32)};
  // FlagGems' input_fn order: hidden_states, topk_weights, topk_ids, then the outputs.
  std::swap(a.t[1], a.t[2]);
}

// _reference_stage_deepseek_v4_mega_moe_inputs: 32-wide groups quantised to float8 with ue8m0
// scales, the scales' exponent bytes packed four to an int32, the routing copied out.
at::Tensor stage_mega_moe(Args& a) {
  const at::Tensor& x = a.t[0];
  const int64_t tokens = x.size(0), hidden = x.size(1), gran_k = 32;
  at::Tensor view = x.view({tokens, hidden / gran_k, gran_k});
  at::Tensor amax = view.abs().to(at::kFloat).amax(2).clamp_min(1e-4);
  at::Tensor scales = ceil_to_ue8m0(amax / kFp8Max);
  a.t[3].copy_((view * (1.0 / scales.unsqueeze(2))).to(at::kFloat8_e4m3fn).view({tokens, hidden}));
  a.t[4].copy_(shr(scales.view(at::kInt), 23).to(at::kByte).view(at::kInt));
  a.t[5].copy_(a.t[2].to(at::kLong));
  a.t[6].copy_(a.t[1]);
  return a.t[3];
}

// flag_gems.moe_align_block_size's layout, for the kernel FlagGems times (the reference ignores
// it): the flattened (token, slot) ids sorted by expert, each expert's run padded to a multiple of
// `block` with numel, the expert of each block, and the padded total.
std::vector<at::Tensor> moe_align_block_size(const at::Tensor& topk_ids, int64_t block,
                                             int64_t experts) {
  at::Tensor flat = topk_ids.flatten().to(at::kLong);
  const int64_t numel = flat.numel();
  const int64_t max_padded = numel + experts * (block - 1);
  at::Tensor counts = at::bincount(flat, {}, experts);
  at::Tensor padded = at::div(counts + (block - 1), block, "floor") * block;
  at::Tensor order = std::get<1>(at::sort(flat, /*stable=*/true, 0, /*descending=*/false));
  at::Tensor expert_of = flat.index({order});
  at::Tensor first = (at::cumsum(counts, 0) - counts).index({expert_of});
  at::Tensor start = (at::cumsum(padded, 0) - padded).index({expert_of});
  at::Tensor pos = start + at::arange(numel, flat.options()) - first;
  auto i32 = topk_ids.options().dtype(at::kInt);
  at::Tensor sorted_ids = at::full({max_padded}, numel, i32);
  sorted_ids.index_put_({pos}, order.to(at::kInt));
  at::Tensor block_experts =
      at::repeat_interleave(at::arange(experts, flat.options()), at::div(padded, block, "floor"));
  at::Tensor expert_ids = at::full({(max_padded + block - 1) / block}, -1, i32);
  expert_ids.narrow(0, 0, block_experts.numel()).copy_(block_experts);
  return {sorted_ids, expert_ids, padded.sum().reshape({1}).to(at::kInt)};
}

// test_fused_moe.py's DispatchFusedMoEKernelBenchmark: A [T, H] / sqrt(H), B [E, N, H], C empty
// [T, topk, N], topk of softmax(N(0, 1) gating) renormalised, and moe_align_block_size's outputs
// for BLOCK_SIZE_M 16, in the input_fn's order.
void dispatch_fused_moe_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], experts = d[1], hidden = d[2], out = d[3], topk = d[4];
  const int64_t kBlockSizeM = 16;
  at::Tensor A = at::randn({tokens, hidden}, c.options()) * (1.0 / std::sqrt(double(hidden)));
  at::Tensor B = at::randn({experts, out, hidden}, c.options());
  at::Tensor C = at::empty({tokens, topk, out}, c.options());
  at::Tensor gating = at::randn({tokens, experts}, c.options().dtype(at::kFloat));
  auto [weights, ids] = at::topk(at::softmax(gating, -1), topk, -1);
  weights = weights / weights.sum(-1, /*keepdim=*/true);
  ids = ids.to(at::kInt).contiguous();
  a.t = {A, B, C, weights.to(c.scalar_type()).contiguous(), ids};
  for (auto& t : moe_align_block_size(ids, kBlockSizeM, experts)) a.t.push_back(t);
}

// _torch_dispatch_fused_moe_kernel_wrapper: each token times its experts' weights, in float32,
// scaled by the routing weight, written into C.
at::Tensor dispatch_fused_moe(Args& a) {
  const at::Tensor &A = a.t[0], &B = a.t[1];
  at::Tensor& C = a.t[2];
  const auto acc = at_least_float(A);
  at::Tensor expert_weights = B.index({a.t[4].to(at::kLong)});
  at::Tensor result = at::einsum("mk,mtnk->mtn", {A.to(acc), expert_weights.to(acc)});
  result = result * a.t[3].to(acc).unsqueeze(-1);
  C.copy_(result.to(C.scalar_type()));
  return C;
}

// scipy.linalg.hadamard(n) (Sylvester's construction), which FlagGems' reference builds on the
// host and copies to the device in every call; here it is built once, with the inputs, so the
// baseline times the transform (F.linear) and not scipy.
at::Tensor hadamard_matrix(int64_t n, const at::TensorOptions& options) {
  at::Tensor h = at::ones({1, 1}, options);
  while (h.size(0) < n) h = at::cat({at::cat({h, h}, 1), at::cat({h, -h}, 1)}, 0);
  return h;
}

int64_t next_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// (batch, dim): x ~ N(0, 1) and the Hadamard matrix of dim rounded up to a power of two.
void hadamard_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), hadamard_matrix(next_power_of_two(d[1]), c.options())};
}

// _hadamard_transform_ref with scale 1.0: pad the last dim to the matrix, F.linear, scale, crop.
at::Tensor hadamard_ref(const at::Tensor& x, const at::Tensor& h) {
  const int64_t dim = x.size(-1), padded = h.size(0);
  at::Tensor x2d = x.reshape({-1, dim});
  if (dim != padded) x2d = at::constant_pad_nd(x2d, {0, padded - dim});
  at::Tensor out = at::linear(x2d, h) * 1.0;
  return out.index({"...", Slice(None, dim)}).reshape(x.sizes());
}

// test_fp8_fp4_mega_moe.py's _build_inputs: x in float8 with per-32 scales, l1 / l2 in packed FP4
// E2M1 with per-32 scales, topk of N(0, 1) scores with softmax'd weights.
at::Tensor pack_fp4_e2m1(const at::Tensor& x) {
  at::Tensor ax = x.abs();
  at::Tensor code = at::zeros_like(x, x.options().dtype(at::kByte));
  for (double boundary : {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0})
    code += (ax > boundary).to(at::kByte);
  code = at::bitwise_or(code, shl((x < 0).logical_and(code != 0).to(at::kByte), 3));
  at::Tensor even = code.index({"...", Slice(0, None, 2)}),
             odd = code.index({"...", Slice(1, None, 2)});
  return at::bitwise_or(band(even, 0x0F), shl(band(odd, 0x0F), 4)).contiguous().view(at::kChar);
}

std::pair<at::Tensor, at::Tensor> quantize_groups(const at::Tensor& x, double max) {
  std::vector<int64_t> sizes(x.sizes().begin(), x.sizes().end() - 1);
  sizes.push_back(x.size(-1) / 32);
  sizes.push_back(32);
  at::Tensor groups = x.to(at::kFloat).view(sizes);
  at::Tensor scale = groups.abs().amax(-1).clamp_min(1e-4) / max;
  return {(groups / scale.unsqueeze(-1)).reshape(x.sizes()), scale.contiguous()};
}

void mega_moe_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], hidden = d[1], inter = d[2], experts = d[3], topk = d[4];
  auto bf16 = c.options().dtype(at::kBFloat16);
  at::Tensor x = at::randn({tokens, hidden}, bf16);
  at::Tensor l1 = at::randn({experts, 2 * inter, hidden}, bf16);
  at::Tensor l2 = at::randn({experts, hidden, inter}, bf16);
  auto [x_scaled, x_scale] = quantize_groups(x, kFp8Max);
  auto [l1_scaled, l1_scale] = quantize_groups(l1, 6.0);
  auto [l2_scaled, l2_scale] = quantize_groups(l2, 6.0);
  at::Tensor scores = at::randn({tokens, experts}, c.options().dtype(at::kFloat));
  auto [weights, ids] = at::topk(scores, topk, -1);
  a.t = {x_scaled.clamp(-kFp8Max, kFp8Max).to(at::kFloat8_e4m3fn),
         x_scale,
         ids,
         at::softmax(weights, -1),
         pack_fp4_e2m1(l1_scaled),
         l1_scale,
         pack_fp4_e2m1(l2_scaled),
         l2_scale};
}

// flag_gems.fused.fp8_fp4_mega_moe's _unpack_fp4_e2m1_torch: two E2M1 codes per byte, low first.
at::Tensor unpack_fp4_e2m1(const at::Tensor& packed) {
  at::Tensor values =
      at::tensor({0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}, packed.options().dtype(at::kFloat));
  at::Tensor p = packed.to(at::kByte);
  std::vector<int64_t> sizes(packed.sizes().begin(), packed.sizes().end());
  sizes.back() *= 2;
  at::Tensor codes = at::empty(sizes, p.options());
  codes.index_put_({"...", Slice(0, None, 2)}, band(p, 0x0F));
  codes.index_put_({"...", Slice(1, None, 2)}, band(shr(p, 4), 0x0F));
  at::Tensor mag = values.index({band(codes, 0x07).to(at::kLong)});
  at::Tensor sign = band(codes, 0x08).ne(0);
  return at::where(sign.logical_and(band(codes, 0x07).ne(0)), -mag, mag);
}

at::Tensor expand_scale(const at::Tensor& scale, int64_t width) {
  return at::repeat_interleave(scale.to(at::kFloat), 32, -1).index({"...", Slice(None, width)});
}

// fp8_fp4_mega_moe_torch_ref: dequantise, then per token and routed slot (an .item() each, a host
// sync) l2[e] @ (silu(gate) * up) of l1[e] @ x, weighted into a float32 sum.
at::Tensor mega_moe(Args& a) {
  at::Tensor x = a.t[0].to(at::kFloat) * expand_scale(a.t[1], a.t[0].size(-1));
  at::Tensor l1 = unpack_fp4_e2m1(a.t[4]) * expand_scale(a.t[5], a.t[4].size(-1) * 2);
  at::Tensor l2 = unpack_fp4_e2m1(a.t[6]) * expand_scale(a.t[7], a.t[6].size(-1) * 2);
  const at::Tensor &ids = a.t[2], &weights = a.t[3];
  const int64_t tokens = x.size(0), hidden = x.size(1), inter = l2.size(-1);
  at::Tensor out = at::zeros({tokens, hidden}, x.options());
  for (int64_t token = 0; token < tokens; ++token) {
    for (int64_t slot = 0; slot < ids.size(1); ++slot) {
      const int64_t expert = ids.index({token, slot}).item<int64_t>();
      if (expert < 0) continue;
      at::Tensor l1_out = at::matmul(l1[expert], x[token]);
      at::Tensor act =
          at::silu(l1_out.index({Slice(None, inter)})) * l1_out.index({Slice(inter, None)});
      out[token] += weights.index({token, slot}).to(at::kFloat) * at::matmul(l2[expert], act);
    }
  }
  return out;
}

// FlagGems' Size Detail of the input_fns whose arguments are not all in Args' tensor order.
SizeDetail topk_softplus_sqrt_detail(const Args& a) {
  SizeDetail d;
  for (size_t i = 0; i < 4; ++i) d.arg(size_of(a.t[i]));
  d.arg(PyValue::flag(a.i[0] != 0)).arg(PyValue::real_number(a.f[0])).arg(size_of(a.t[4]));
  return d;
}

SizeDetail per_token_group_detail(const Args& a) {
  SizeDetail d;
  d.arg(size_of(a.t[0])).arg(PyValue::of(a.i[0])).arg(PyValue::flag(a.i[1] != 0));
  return d;
}

SizeDetail act_quant_detail(const Args& a) {
  SizeDetail d;
  d.arg(size_of(a.t[0])).kwarg("block_size", PyValue::of(a.i[0]));
  d.kwarg("scale_fmt", a.i[1] != 0 ? PyValue::str("ue8m0") : PyValue::none());
  return d;
}

SizeDetail first_tensor_detail(const Args& a) {
  SizeDetail d;
  d.arg(size_of(a.t[0]));
  return d;
}

SizeDetail mega_moe_detail(const Args& a) {
  SizeDetail d;
  for (const auto& t : a.t) d.arg(size_of(t));
  d.arg(PyValue::raw("torch.bfloat16"));
  return d;
}

}  // namespace

std::vector<OpDef> moe_quant_ops() {
  using A = Args;
  using py_args::f;
  using py_args::flag;
  using py_args::i;
  using py_args::kw;
  using py_args::t;
  const std::vector<DType> kBf16 = {DType::kBFloat16};
  std::vector<OpDef> ops;
  ops.push_back(
      OpDef("topk_softplus_sqrt")
          .family(Family::kSort)
          .dtypes(kBf16)
          .shape_key("TopkSoftplusSqrtBenchmark")
          .shape_desc("num_tokens, num_experts, topk")
          .inputs(topk_softplus_sqrt_inputs)
          .call(topk_softplus_sqrt)
          .detail(topk_softplus_sqrt_detail)
          .flops([](const A& a, const at::Tensor&) { return double(a.t[3].numel()); })
          .aten({"aten::softplus", "aten::sqrt", "aten::add.Tensor", "aten::topk", "aten::gather",
                 "aten::sum.dim_IntList", "aten::div.Tensor", "aten::copy_", "aten::arange"})
          // Returns None: topk_weights, written in place, is compared.
          .python_fn("topk_softplus_sqrt", {t(0), t(1), t(2), t(3), flag(0), f(0), t(4)}));
  // test_router_gemm.py: x [M, K], weight [N, K] in bfloat16, mm(x, weight.t()) in float32. The
  // output keeps bfloat16's rounding, so it is verified at bfloat16's tolerance (400 x float32's).
  ops.push_back(OpDef("router_gemm")
                    .family(Family::kBlas)
                    .dtypes(kBf16)
                    .shape_key("RouterGemmBenchmark")
                    .shape_desc("M, N, K")
                    .inputs([](const BuildContext& c, A& a) {
                      auto d = c.dims();
                      a.t = {ops::random(c, {d[0], d[2]}), ops::random(c, {d[1], d[2]})};
                    })
                    .call([](A& a) {
                      at::Tensor out = at::mm(a.t[0], a.t[1].t());
                      return out.to(at_least_float(out));
                    })
                    .flops([](const A& a, const at::Tensor&) {
                      return 2.0 * a.t[0].size(0) * a.t[1].size(0) * a.t[0].size(1);
                    })
                    .tolerance(400)
                    .aten({"aten::mm", "aten::_to_copy"})
                    .python_fn("router_gemm", {t(0), t(1)}));
  // test_per_token_group_quant_fp8.py: x = rand(num_tokens, d), group_size from the shape;
  // scale_ue8m0 is random.choice([True, False]) there: False here, so runs are comparable.
  ops.push_back(
      OpDef("per_token_group_quant_fp8")
          .family(Family::kTensor)
          .dtypes(kBf16)
          .shape_key("PerTokenGroupQuantFp8Benchmark")
          .shape_desc("num_tokens, d, group_size")
          .more_shapes({})
          .inputs([](const BuildContext& c, A& a) {
            auto d = c.dims();
            a.t = {at::rand({d[0], d[1]}, c.options())};
            a.i = {d[2], 0};
          })
          .call(per_token_group_quant_fp8)
          .detail(per_token_group_detail)
          .flops([](const A& a, const at::Tensor&) { return double(a.t[0].numel()); })
          .aten({"aten::abs", "aten::max.dim", "aten::clamp_min", "aten::div.Tensor", "aten::clamp",
                 "aten::_to_copy"})
          // The test passes scale_ue8m0 third, into the signature's eps: here it goes by name.
          // (x_q, x_s) returned; x_q is compared.
          .python_fn("per_token_group_quant_fp8", {t(0), i(0), kw("scale_ue8m0", flag(1))}));
  // test_act_quant.py: x ~ N(0, 1) of (M, N), block_size 64 or 128, scale_fmt None or "ue8m0" (its
  // parametrisation, carried in the shape). No python_fn: scale_fmt is None or a string by case.
  ops.push_back(OpDef("act_quant_triton")
                    .family(Family::kTensor)
                    .dtypes(kBf16)
                    .shape_key("ActQuantBenchmark")
                    .shape_desc("M, N, block_size, scale_ue8m0")
                    .more_shapes(act_quant_more_shapes())
                    .skip_shapes(act_quant_unsupported)
                    .inputs([](const BuildContext& c, A& a) {
                      auto d = c.dims();
                      a.t = {ops::random(c, {d[0], d[1]})};
                      a.i = {d[2], d[3]};
                    })
                    .call(act_quant)
                    .detail(act_quant_detail)
                    .flops([](const A& a, const at::Tensor&) { return double(a.t[0].numel()); })
                    .aten({"aten::abs", "aten::amax", "aten::clamp_min", "aten::mul.Tensor",
                           "aten::clamp", "aten::_to_copy"}));
  ops.push_back(OpDef("stage_deepseek_v4_mega_moe_inputs")
                    .family(Family::kTensor)
                    .dtypes(kBf16)
                    .shape_key("StageDeepseekV4MegaMoeInputsBenchmark")
                    .shape_desc("num_tokens, hidden_size, top_k")
                    .inputs(stage_mega_moe_inputs)
                    .call(stage_mega_moe)
                    .flops([](const A& a, const at::Tensor&) { return double(a.t[0].numel()); })
                    .aten({"aten::abs", "aten::amax", "aten::clamp_min", "aten::bitwise_and",
                           "aten::bitwise_right_shift", "aten::bitwise_left_shift", "aten::mul",
                           "aten::_to_copy", "aten::copy_"})
                    // Returns None: x_fp8, written in place, is compared.
                    .python_fn("stage_deepseek_v4_mega_moe_inputs",
                               {t(0), t(1), t(2), t(3), t(4), t(5), t(6)}));
  // No python_fn: flag_gems.dispatch_fused_moe_kernel takes a config dict and a Triton
  // compute_type, which a binding cannot build.
  ops.push_back(OpDef("dispatch_fused_moe_kernel")
                    .family(Family::kBlas)
                    .dtypes({DType::kBFloat16, DType::kFloat16})
                    .shape_key("DispatchFusedMoEKernelBenchmark")
                    .shape_desc("num_tokens, num_experts, hidden_size, output_size, topk")
                    .inputs(dispatch_fused_moe_inputs)
                    .call(dispatch_fused_moe)
                    .flops([](const A& a, const at::Tensor& out) {
                      return 2.0 * out.numel() * a.t[0].size(1);
                    })
                    .aten({"aten::index.Tensor", "aten::einsum", "aten::bmm", "aten::mul.Tensor",
                           "aten::copy_"}));
  // test_hadamard_transform.py: (batch, dim) on FLOAT_DTYPES; _mn pads dim to a power of two first.
  auto hadamard = [](const char* name, const char* key) {
    return OpDef(name)
        .family(Family::kUnary)
        .shape_key(key)
        .shape_desc("batch, dim")
        .more_shapes({})
        .inputs(hadamard_inputs)
        .detail(first_tensor_detail)  // H is built once, not an argument
        .flops([](const A& a, const at::Tensor&) {
          return 2.0 * a.t[0].size(0) * a.t[1].size(0) * a.t[1].size(0);
        })
        // Each output sums dim (up to 2048 on the CPU) terms of N(0, 1): float32 is off by up to
        // 1e-4 on the outputs near zero, over float32's atol.
        .tolerance(10)
        .aten({"aten::constant_pad_nd", "aten::linear", "aten::mm", "aten::mul.Tensor"});
  };
  // flag_gems.hadamard_transform(x): H is the baseline's, built once with the inputs.
  ops.push_back(hadamard("hadamard_transform", "HadamardBenchmark")
                    .call([](A& a) { return hadamard_ref(a.t[0], a.t[1]); })
                    .python_fn("hadamard_transform", {py_args::t(0)}));
  // No python_fn: the test's gems_ht_mn picks hadamard_transform_12N, _20N, _28N or _40N by dim.
  ops.push_back(hadamard("hadamard_transform_mn", "HadamardMNBenchmark").call([](A& a) {
    const int64_t dim = a.t[0].size(-1);
    at::Tensor padded = at::constant_pad_nd(a.t[0], {0, a.t[1].size(0) - dim});
    return hadamard_ref(padded, a.t[1]).index({"...", Slice(None, dim)});
  }));
  // test_fp8_fp4_mega_moe.py's torch-reference test (SM90; the vLLM one needs SM100): the
  // reference reads each routed expert id on the host.
  ops.push_back(
      OpDef("fp8_fp4_mega_moe")
          .family(Family::kBlas)
          .dtypes(kBf16)
          .shape_key("FP8FP4MegaMoEBenchmark")
          .shape_desc("num_tokens, hidden, intermediate, num_experts, top_k")
          .inputs(mega_moe_inputs)
          .call(mega_moe)
          .detail(mega_moe_detail)
          .host_sync()
          .flops([](const A& a, const at::Tensor& out) {
            // l1 (2I x H) and l2 (H x I) per routed token.
            const double inter = a.t[6].size(-1) * 2.0;
            return a.t[2].numel() * (2.0 * 2 * inter * out.size(1) + 2.0 * out.size(1) * inter);
          })
          .aten({"aten::_to_copy", "aten::repeat_interleave.self_int", "aten::bitwise_and",
                 "aten::index.Tensor", "aten::where.self", "aten::item", "aten::mv", "aten::silu",
                 "aten::add_.Tensor"})
          .python_fn("fp8_fp4_mega_moe", {t(0), t(1), t(2), t(3), t(4), t(5), t(6), t(7)}));
  return ops;
}

}  // namespace caliber
