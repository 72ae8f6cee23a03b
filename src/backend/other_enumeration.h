#pragma once

#include <vector>

#include "backend/device_info.h"

namespace caliber {

// Devices of the non-NVIDIA accelerators, through their runtime libraries loaded with dlopen:
// the count, name and memory each runtime reports. Absent libraries mean no devices.
std::vector<DeviceInfo> enumerate_rocm_devices();
std::vector<DeviceInfo> enumerate_musa_devices();
std::vector<DeviceInfo> enumerate_ascend_devices();

// The host as the one device of the cpu backend.
std::vector<DeviceInfo> enumerate_host_cpu();

}  // namespace caliber
