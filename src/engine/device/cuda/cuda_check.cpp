#include "engine/device/cuda/cuda_check.h"

#include <fmt/format.h>

#include "timing/device_api.h"

namespace caliber::cuda {

void check(cudaError_t status, const char* phase, const char* what) {
  if (status == cudaSuccess) return;
  throw DeviceError(
      phase, fmt::format("{}: {}: {}", what, cudaGetErrorName(status), cudaGetErrorString(status)));
}

}  // namespace caliber::cuda
