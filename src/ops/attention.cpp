// Attention: FlagGems' AttentionBenchmark (B, H, S, D), through PyTorch's SDPA entry point, which
// picks the flash, memory-efficient, cuDNN or math kernel for the device.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_cudnn_attention_forward.h>
#include <ATen/ops/_efficient_attention_backward.h>
#include <ATen/ops/_efficient_attention_forward.h>
#include <ATen/ops/_flash_attention_backward.h>
#include <ATen/ops/_flash_attention_forward.h>
#include <ATen/ops/_scaled_dot_product_attention_math.h>
#include <ATen/ops/_scaled_dot_product_cudnn_attention.h>
#include <ATen/ops/_scaled_dot_product_cudnn_attention_backward.h>
#include <ATen/ops/_scaled_dot_product_efficient_attention.h>
#include <ATen/ops/_scaled_dot_product_efficient_attention_backward.h>
#include <ATen/ops/_scaled_dot_product_flash_attention.h>
#include <ATen/ops/_scaled_dot_product_flash_attention_backward.h>
#include <ATen/ops/_scaled_dot_product_fused_attention_overrideable.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/scaled_dot_product_attention.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

double attention_flops(const Args& a, const at::Tensor&, bool causal) {
  const at::Tensor& q = a.t[0];
  double b = q.size(0), h = q.size(1), s = q.size(2), d = q.size(3);
  double full = 4.0 * b * h * s * s * d;  // QK^T and PV
  return causal ? full / 2 : full;
}

OpDef attention(const char* name, bool causal) {
  return OpDef(name)
      .family(Family::kAttention)
      .shape_key("AttentionBenchmark")
      .shape_desc("B, H, S, D")
      .builtin_shapes({{4, 32, 1024, 64}, {4, 32, 1024, 128}, {4, 32, 2048, 128}})
      .inputs(ops::tensors(3))
      .call([causal](Args& a) {
        return at::scaled_dot_product_attention(a.t[0], a.t[1], a.t[2], {}, 0.0, causal);
      })
      .flops([causal](const Args& a, const at::Tensor& out) {
        return attention_flops(a, out, causal);
      })
      .aten({"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
             "aten::_scaled_dot_product_efficient_attention",
             "aten::_scaled_dot_product_cudnn_attention",
             "aten::_scaled_dot_product_flash_attention_for_cpu"})
      .tolerance(3);
}

// The attention kernels SDPA picks, called directly as FlagGems' marks do (ops/dismiss.yaml:
// most have CUDA kernels only). Inputs ~ U(-0.05, 0.05) as FlagGems' kernel benchmarks build
// them (N(0, 1) where its test says randn); scale 1 / sqrt(D) where FlagGems passes one.
// Args::i carries the case's integers (batch, heads, lengths, head size, flags) as the shape
// lists them; Args::f = {scale}.
OpDef kernel(const char* name, const char* key, const char* desc, std::vector<DType> dtypes,
             BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kAttention)
      .shape_key(key)
      .shape_desc(desc)
      .dtypes(std::move(dtypes))
      .inputs(std::move(inputs))
      .call(std::move(call))
      .aten({std::string("aten::_") + name})
      .tolerance(3);
}

at::Tensor small_uniform(const BuildContext& c, at::IntArrayRef sizes) {
  return at::empty(sizes, c.options()).uniform_(-0.05, 0.05);
}

// The tensor at `index`, or an undefined one (None) where the case has none: an optional bias
// is the last input and only where the case has one (the harness sizes every input it has).
at::Tensor optional_at(const Args& a, size_t index) {
  return index < a.t.size() ? a.t[index] : at::Tensor();
}

// An optional argument's value: None for an undefined tensor (ATen's kernels test has_value()).
std::optional<at::Tensor> present(const at::Tensor& t) {
  return t.defined() ? std::optional<at::Tensor>(t) : std::nullopt;
}

double inverse_sqrt(int64_t head_size) { return 1.0 / std::sqrt(static_cast<double>(head_size)); }

const std::vector<DType> kHalfTypes = {DType::kFloat16, DType::kBFloat16};

// q, k, v [B, H, S, D] ~ N(0, 1) of an AttentionBenchmark-like (B, H, S, D).
void bhsd_randn(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random(c, d), ops::random(c, d)};
  a.f = {inverse_sqrt(d[3])};
}

// q, k, v [B, H, S, D] ~ U(-0.05, 0.05), a gradient ~ N(0, 1), the scale; (B, H, S, D) first.
void bhsd_uniform(const BuildContext& c, Args& a, int64_t heads_k) {
  auto d = c.dims();
  const int64_t b = d[0], h = d[1], s = d[2], dim = d[3];
  a.t = {small_uniform(c, {b, h, s, dim}), small_uniform(c, {b, heads_k, s, dim}),
         small_uniform(c, {b, heads_k, s, dim}), ops::random(c, {b, h, s, dim})};
  a.f = {inverse_sqrt(dim)};
}

std::vector<OpDef> attention_kernel_ops() {
  using A = Args;
  std::vector<OpDef> ops;
  // _scaled_dot_product_flash_attention(q, k, v, 0.0, False, False) on AttentionBenchmark.
  ops.push_back(kernel("scaled_dot_product_flash_attention", "AttentionBenchmark", "B, H, S, D",
                       kHalfTypes, bhsd_randn, [](A& a) {
                         return std::get<0>(at::_scaled_dot_product_flash_attention(
                             a.t[0], a.t[1], a.t[2], 0.0, false, false));
                       }));
  // _scaled_dot_product_cudnn_attention(q, k, v, None, True, 0.0, is_causal True, False, scale):
  // FlagGems' first is_causal.
  ops.push_back(kernel("scaled_dot_product_cudnn_attention", "AttentionBenchmark", "B, H, S, D",
                       kHalfTypes, bhsd_randn, [](A& a) {
                         return std::get<0>(at::_scaled_dot_product_cudnn_attention(
                             a.t[0], a.t[1], a.t[2], {}, true, 0.0, true, false, a.f[0]));
                       }));
  // _scaled_dot_product_efficient_attention(q, k, v, None, False).
  ops.push_back(kernel("scaled_dot_product_efficient_attention",
                       "ScaledDotProductEfficientAttentionBenchmark", "B, H, S, D", kFloatDTypes,
                       bhsd_randn, [](A& a) {
                         return std::get<0>(at::_scaled_dot_product_efficient_attention(
                             a.t[0], a.t[1], a.t[2], {}, false));
                       }));
  // _scaled_dot_product_attention_math(q, k, v): the composite reference path, any backend.
  ops.push_back(
      kernel("scaled_dot_product_attention_math", "ScaledDotProductAttentionMathBenchmark",
             "B, H, S, D", kFloatDTypes, bhsd_randn, [](A& a) {
               return std::get<0>(at::_scaled_dot_product_attention_math(a.t[0], a.t[1], a.t[2]));
             }));
  // _scaled_dot_product_fused_attention_overrideable(q, k, v, None, 0.0, False, False, None):
  // the entry point PrivateUse1 backends implement (FlagGems' first is_causal).
  ops.push_back(kernel("scaled_dot_product_fused_attention_overrideable",
                       "ScaledDotProductFusedAttentionOverrideableBenchmark", "B, H, S, D",
                       kFloatDTypes, bhsd_randn, [](A& a) {
                         return std::get<0>(at::_scaled_dot_product_fused_attention_overrideable(
                             a.t[0], a.t[1], a.t[2]));
                       }));
  // _flash_attention_forward(q [B, Sq, H, D], k, v [B, Skv, Hk, D], None, None, Sq, Skv, 0.0,
  // causal, False, scale): FlagGems' configurations without a window, ALiBi or dropout, as
  // (B, H, Hk, Sq, Skv, D, causal).
  ops.push_back(kernel(
      "flash_attention_forward", "FlashAttentionForwardBenchmark",
      "B, H, H_k, S_q, S_kv, D, causal", kHalfTypes,
      [](const BuildContext& c, A& a) {
        auto d = c.dims();
        a.t = {small_uniform(c, {d[0], d[3], d[1], d[5]}),
               small_uniform(c, {d[0], d[4], d[2], d[5]}),
               small_uniform(c, {d[0], d[4], d[2], d[5]})};
        a.i = {d[3], d[4], d[6]};
        a.f = {inverse_sqrt(d[5])};
      },
      [](A& a) {
        return std::get<0>(at::_flash_attention_forward(a.t[0], a.t[1], a.t[2], {}, {}, a.i[0],
                                                        a.i[1], 0.0, a.i[2] != 0, false, a.f[0]));
      }));
  // test__flash_attention_forward times this aten op on the same class under its own mark.
  ops.back().aliases({"underscore_flash_attention_forward"});
  // _flash_attention_backward(grad, q, k, v, out, lse, None, None, Sq, Skv, 0.0, causal, seed,
  // offset, scale) of _flash_attention_forward, [B, S, H, D] tensors; (B, H, Sq, Skv, D, causal).
  ops.push_back(kernel(
      "flash_attention_backward", "FlashAttentionBackwardBenchmark", "B, H, S_q, S_kv, D, causal",
      kHalfTypes,
      [](const BuildContext& c, A& a) {
        auto d = c.dims();
        const int64_t b = d[0], h = d[1], sq = d[2], skv = d[3], dim = d[4];
        const bool causal = d[5] != 0;
        const double scale = inverse_sqrt(dim);
        at::Tensor q = small_uniform(c, {b, sq, h, dim}), k = small_uniform(c, {b, skv, h, dim}),
                   v = small_uniform(c, {b, skv, h, dim});
        auto [out, lse, seed, offset, debug] =
            at::_flash_attention_forward(q, k, v, {}, {}, sq, skv, 0.0, causal, false, scale);
        a.t = {ops::random(c, {b, sq, h, dim}), q, k, v, out, lse, seed, offset};
        a.i = {sq, skv, d[5]};
        a.f = {scale};
      },
      [](A& a) {
        return std::get<0>(at::_flash_attention_backward(a.t[0], a.t[1], a.t[2], a.t[3], a.t[4],
                                                         a.t[5], {}, {}, a.i[0], a.i[1], 0.0,
                                                         a.i[2] != 0, a.t[6], a.t[7], a.f[0]));
      }));
  // _scaled_dot_product_flash_attention_backward(grad, q, k, v, out, lse, cum_q, cum_k, S, S,
  // 0.0, causal, seed, offset, scale) of the forward, [B, H, S, D]; (B, H, S, D, causal).
  ops.push_back(kernel(
      "scaled_dot_product_flash_attention_backward", "SdpFlashAttentionBackwardBenchmark",
      "B, H, S, D, causal", kHalfTypes,
      [](const BuildContext& c, A& a) {
        bhsd_uniform(c, a, c.dims()[1]);
        auto d = c.dims();
        auto [out, lse, cum_q, cum_k, max_q, max_k, seed, offset, debug] =
            at::_scaled_dot_product_flash_attention(a.t[0], a.t[1], a.t[2], 0.0, d[4] != 0, false,
                                                    a.f[0]);
        a.t = {a.t[3], a.t[0], a.t[1], a.t[2], out, lse, seed, offset};
        a.i = {d[2], d[4]};
      },
      [](A& a) {
        return std::get<0>(at::_scaled_dot_product_flash_attention_backward(
            a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], a.t[5], {}, {}, a.i[0], a.i[0], 0.0,
            a.i[1] != 0, a.t[6], a.t[7], a.f[0]));
      }));
  // _cudnn_attention_forward(q, k, v, bias, None, None, S, S, True, 0.0, causal, False, scale),
  // [B, H, S, D], bias 0.1 N(0, 1) [B, H, S, S] where the case has one: (B, H, S, D, causal,
  // bias).
  auto bias_of = [](const BuildContext& c, const std::vector<int64_t>& d) {
    return d[5] != 0 ? ops::random(c, {d[0], d[1], d[2], d[2]}).mul_(0.1) : at::Tensor();
  };
  ops.push_back(kernel(
      "cudnn_attention_forward", "CudnnAttentionForwardBenchmark", "B, H, S, D, causal, bias",
      kHalfTypes,
      [=](const BuildContext& c, A& a) {
        bhsd_uniform(c, a, c.dims()[1]);
        auto d = c.dims();
        a.t.pop_back();
        at::Tensor bias = bias_of(c, d);
        if (bias.defined()) a.t.push_back(bias);
        a.i = {d[2], d[4]};
      },
      [](A& a) {
        std::optional<at::Tensor> bias;
        if (a.t.size() > 3) bias = a.t[3];
        return std::get<0>(at::_cudnn_attention_forward(a.t[0], a.t[1], a.t[2], bias, {}, {},
                                                        a.i[0], a.i[0], true, 0.0, a.i[1] != 0,
                                                        false, a.f[0]));
      }));
  // _scaled_dot_product_cudnn_attention_backward(grad, q, k, v, out, lse, seed, offset, bias,
  // None, None, S, S, 0.0, causal, scale) of the cuDNN forward; (B, H, S, D, causal, bias).
  ops.push_back(kernel(
      "scaled_dot_product_cudnn_attention_backward", "CudnnAttentionBackwardBenchmark",
      "B, H, S, D, causal, bias", kHalfTypes,
      [=](const BuildContext& c, A& a) {
        bhsd_uniform(c, a, c.dims()[1]);
        auto d = c.dims();
        at::Tensor bias = bias_of(c, d);
        auto [out, lse, cum_q, cum_k, max_q, max_k, seed, offset, debug] =
            at::_scaled_dot_product_cudnn_attention(a.t[0], a.t[1], a.t[2], present(bias), true,
                                                    0.0, d[4] != 0, false, a.f[0]);
        a.t = {a.t[3], a.t[0], a.t[1], a.t[2], out, lse, seed, offset};
        if (bias.defined()) a.t.push_back(bias);
        a.i = {d[2], d[4]};
      },
      [](A& a) {
        return std::get<0>(at::_scaled_dot_product_cudnn_attention_backward(
            a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], a.t[5], a.t[6], a.t[7], optional_at(a, 8),
            at::Tensor(), at::Tensor(), a.i[0], a.i[0], 0.0, a.i[1] != 0, a.f[0]));
      }));
  // _efficient_attention_backward(grad, q, k, v, bias, out, None, None, S, S, lse, 0.0, seed,
  // offset, mask type, bias grad, scale) of _efficient_attention_forward, [B, S, H, D]:
  // (B, H, S, D, mask type, bias).
  ops.push_back(kernel(
      "efficient_attention_backward", "EfficientAttentionBackwardBenchmark",
      "B, H, S, D, custom_mask_type, bias", kHalfTypes,
      [=](const BuildContext& c, A& a) {
        auto d = c.dims();
        const int64_t b = d[0], h = d[1], s = d[2], dim = d[3];
        const double scale = inverse_sqrt(dim);
        at::Tensor q = small_uniform(c, {b, s, h, dim}), k = small_uniform(c, {b, s, h, dim}),
                   v = small_uniform(c, {b, s, h, dim});
        at::Tensor bias = bias_of(c, {b, h, s, dim, 0, d[5]});
        auto [out, lse, seed, offset, max_q, max_k] = at::_efficient_attention_forward(
            q, k, v, present(bias), {}, {}, s, s, 0.0, d[4], true, scale);
        a.t = {ops::random(c, {b, s, h, dim}), q, k, v, out, lse, seed, offset};
        if (bias.defined()) a.t.push_back(bias);
        a.i = {s, d[4], d[5]};
        a.f = {scale};
      },
      [](A& a) {
        return std::get<0>(at::_efficient_attention_backward(
            a.t[0], a.t[1], a.t[2], a.t[3], present(optional_at(a, 8)), a.t[4], {}, {}, a.i[0],
            a.i[0], a.t[5], 0.0, a.t[6], a.t[7], a.i[1], a.i[2] != 0, a.f[0]));
      }));
  // _scaled_dot_product_efficient_attention_backward(grad, q, k, v, bias, out, lse, seed,
  // offset, 0.0, [True, True, True, bias], causal, scale) of the SDPA efficient forward,
  // [B, H, S, D]: FlagGems' cases that ask for every gradient, (B, H, S, D, causal, bias).
  ops.push_back(kernel(
      "scaled_dot_product_efficient_attention_backward", "SdpEfficientAttentionBackwardBenchmark",
      "B, H, S, D, causal, bias", kHalfTypes,
      [=](const BuildContext& c, A& a) {
        bhsd_uniform(c, a, c.dims()[1]);
        auto d = c.dims();
        at::Tensor bias = bias_of(c, d);
        auto [out, lse, seed, offset] = at::_scaled_dot_product_efficient_attention(
            a.t[0], a.t[1], a.t[2], present(bias), true, 0.0, d[4] != 0, a.f[0]);
        a.t = {a.t[3], a.t[0], a.t[1], a.t[2], out, lse, seed, offset};
        if (bias.defined()) a.t.push_back(bias);
        a.i = {d[4], d[5]};
      },
      [](A& a) {
        const bool bias = a.i[1] != 0;
        return std::get<0>(at::_scaled_dot_product_efficient_attention_backward(
            a.t[0], a.t[1], a.t[2], a.t[3], optional_at(a, 8), a.t[4], a.t[5], a.t[6], a.t[7], 0.0,
            {true, true, true, bias}, a.i[0] != 0, a.f[0]));
      }));
  return ops;
}

}  // namespace

std::vector<OpDef> attention_ops() {
  std::vector<OpDef> ops = {
      attention("scaled_dot_product_attention", false),
      attention("scaled_dot_product_attention_causal", true),
      attention("scaled_dot_product_attention_backward", false)
          .backward()
          .aten({"aten::_scaled_dot_product_flash_attention_backward",
                 "aten::_scaled_dot_product_efficient_attention_backward",
                 "aten::_scaled_dot_product_cudnn_attention_backward",
                 "aten::_scaled_dot_product_flash_attention_for_cpu_backward"}),
  };
  for (auto& op : attention_kernel_ops()) ops.push_back(std::move(op));
  return ops;
}

}  // namespace caliber
