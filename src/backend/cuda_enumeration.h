#pragma once

#include <optional>
#include <vector>

#include "backend/device_info.h"

namespace caliber {

// NVIDIA devices through the driver library (libcuda) and NVML, both loaded with dlopen so
// that caliber runs where neither is installed.
std::vector<DeviceInfo> enumerate_cuda_devices();

// Current SM clock of a visible device (its index as CUDA numbers it), through NVML.
std::optional<int> read_cuda_sm_clock_mhz(int device_index);

}  // namespace caliber
