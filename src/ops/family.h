#pragma once

#include <string_view>
#include <vector>

#include "core/choice.h"

namespace caliber {

// Operator families, as FlagGems groups its benchmarks, in registry order: the enum value, the
// name that flags and files use, and the function of src/ops/ that returns the family's table.
// Adding a family is one line here and its own file.
#define CALIBER_FAMILIES(X)                 \
  X(kBlas, "blas", blas_ops)                \
  X(kReduction, "reduction", reduction_ops) \
  X(kNorm, "norm", norm_ops)                \
  X(kSoftmax, "softmax", softmax_ops)       \
  X(kUnary, "unary", unary_ops)             \
  X(kBinary, "binary", binary_ops)          \
  X(kRng, "rng", rng_ops)                   \
  X(kSort, "sort", sort_ops)                \
  X(kIndex, "index", index_ops)             \
  X(kTensor, "tensor", tensor_ops)          \
  X(kConstruct, "construct", construct_ops) \
  X(kAttention, "attention", attention_ops) \
  X(kConv, "conv", conv_ops)                \
  X(kLoss, "loss", loss_ops)                \
  X(kSelftest, "selftest", selftest_ops)

enum class Family {
#define CALIBER_FAMILY_ENUM(value, name, table) value,
  CALIBER_FAMILIES(CALIBER_FAMILY_ENUM)
#undef CALIBER_FAMILY_ENUM
};

const Choice<Family>& family_choice();
inline const char* to_string(Family f) { return family_choice().name(f); }

}  // namespace caliber
