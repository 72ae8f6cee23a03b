#include "engine/torch_runtime.h"

#include <fmt/format.h>
#include <torch/version.h>

#ifdef CALIBER_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace caliber {

std::string torch_version() { return TORCH_VERSION; }

std::string torch_cuda_runtime_version() {
#ifdef CALIBER_HAVE_CUDA
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) return "";
  return fmt::format("CUDA runtime {}.{}", version / 1000, (version % 1000) / 10);
#else
  return "";
#endif
}

}  // namespace caliber
