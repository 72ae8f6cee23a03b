#include "engine/family.h"

namespace caliber {

const Choice<Family>& family_choice() {
  static const Choice<Family> choice = {
      {"blas", Family::kBlas},
      {"reduction", Family::kReduction},
      {"norm", Family::kNorm},
      {"softmax", Family::kSoftmax},
      {"unary", Family::kUnary},
      {"binary", Family::kBinary},
      {"rng", Family::kRng},
      {"sort", Family::kSort},
      {"index", Family::kIndex},
      {"tensor", Family::kTensor},
      {"construct", Family::kConstruct},
      {"attention", Family::kAttention},
      {"conv", Family::kConv},
      {"loss", Family::kLoss},
      {"selftest", Family::kSelftest},
  };
  return choice;
}

}  // namespace caliber
