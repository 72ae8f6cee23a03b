#pragma once

#include <memory>

#include "backend/device_info.h"
#include "timing/device_api.h"

namespace caliber {

// An NVIDIA GPU through torch's CUDA runtime: events on the current torch stream, graphs through
// at::cuda::CUDAGraph, a blocking kernel for batches, CUPTI for kernel durations, NVML clocks.
// `info` gives the L2 size and maximum SM clock (read from the runtime where it is empty).
std::unique_ptr<DeviceApi> make_cuda_device_api(int device_index, const DeviceInfo& info);

}  // namespace caliber
