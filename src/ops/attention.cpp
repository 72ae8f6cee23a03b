// Attention: FlagGems' AttentionBenchmark (B, H, S, D), through PyTorch's SDPA entry point, which
// picks the flash, memory-efficient, cuDNN or math kernel for the device.
#include <ATen/core/Tensor.h>
#include <ATen/ops/scaled_dot_product_attention.h>

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
  return ops;
}

}  // namespace caliber
