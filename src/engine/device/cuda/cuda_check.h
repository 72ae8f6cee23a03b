#pragma once

#include <cuda_runtime_api.h>

namespace caliber::cuda {

// Throws DeviceError(phase, ...) naming the failed call and the runtime's error name and text;
// the error name (cudaErrorStreamCaptureUnsupported, ...) is what the backend's classifier keys on.
void check(cudaError_t status, const char* phase, const char* what);

}  // namespace caliber::cuda
