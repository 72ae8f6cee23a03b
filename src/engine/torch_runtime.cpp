#include "engine/torch_runtime.h"

#include <torch/version.h>

namespace caliber {

std::string torch_version() { return TORCH_VERSION; }

}  // namespace caliber
