#pragma once

#include <vector>

#include "engine/op_def.h"

namespace caliber {

// One function per file of src/ops/, each returning that family's table of ops.
std::vector<OpDef> blas_ops();
std::vector<OpDef> reduction_ops();
std::vector<OpDef> norm_ops();
std::vector<OpDef> softmax_ops();
std::vector<OpDef> unary_ops();
std::vector<OpDef> binary_ops();
std::vector<OpDef> rng_ops();
std::vector<OpDef> sort_ops();
std::vector<OpDef> index_ops();
std::vector<OpDef> tensor_ops();
std::vector<OpDef> construct_ops();
std::vector<OpDef> attention_ops();
std::vector<OpDef> conv_ops();
std::vector<OpDef> loss_ops();
std::vector<OpDef> selftest_ops();

}  // namespace caliber
