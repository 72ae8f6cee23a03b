#pragma once

#include <vector>

#include "ops/op_def.h"

namespace caliber {

// Family tables whose rows name an ATen operator and derive its in-place and out= variants
// (src/ops/variants.h), one function per file of src/ops/.
std::vector<OpDef> unary_variant_ops();
std::vector<OpDef> binary_variant_ops();
std::vector<OpDef> reduction_variant_ops();
std::vector<OpDef> tensor_variant_ops();
std::vector<OpDef> construct_variant_ops();
std::vector<OpDef> index_variant_ops();
std::vector<OpDef> padding_ops();
std::vector<OpDef> upsample_ops();
std::vector<OpDef> pooling_ops();
std::vector<OpDef> view_ops();
std::vector<OpDef> linalg_ops();
std::vector<OpDef> loss_variant_ops();
std::vector<OpDef> norm_variant_ops();
std::vector<OpDef> optimizer_ops();
std::vector<OpDef> quantize_ops();
std::vector<OpDef> rnn_ops();
// Fused LLM kernels by their ATen composites, in the families their inputs fit (fused.cpp).
std::vector<OpDef> fused_ops();
// Misc LLM, vision and linear-attention marks by their ATen composites (llm_misc.cpp).
std::vector<OpDef> llm_misc_ops();
// MoE routing and experts, FP8 quantisation, Hadamard transforms (moe_quant.cpp).
std::vector<OpDef> moe_quant_ops();
// Paged-KV cache writes and paged / sparse attention by their ATen composites (kv_attention.cpp).
std::vector<OpDef> kv_attention_ops();

}  // namespace caliber
