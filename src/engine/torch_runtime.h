#pragma once

#include <string>

namespace caliber {

// Versions of the torch the engine was built against and runs with.
std::string torch_version();
std::string torch_cuda_runtime_version();  // empty when torch has no CUDA

}  // namespace caliber
