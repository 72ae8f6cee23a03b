#pragma once

#include <string_view>
#include <vector>

#include "core/choice.h"

namespace caliber {

// Operator families, as FlagGems groups its benchmarks.
enum class Family {
  kBlas,
  kReduction,
  kNorm,
  kSoftmax,
  kUnary,
  kBinary,
  kRng,
  kSort,
  kIndex,
  kTensor,
  kConstruct,
  kAttention,
  kConv,
  kLoss,
  kSelftest,
};

const Choice<Family>& family_choice();
inline const char* to_string(Family f) { return family_choice().name(f); }

}  // namespace caliber
