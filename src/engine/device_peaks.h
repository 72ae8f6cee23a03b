#pragma once

#include <filesystem>
#include <string>

#include "engine/device/device_runtime.h"
#include "timing/device_api.h"

namespace caliber {

// The device's measured ceilings, against which rows report percent of peak: memory bandwidth
// from a large device-to-device copy (bytes read + written) and the matrix rate from a large
// product (bf16 on accelerators, fp32 on the host). Datasheet numbers are not used.
struct DevicePeaks {
  std::string device;
  double bandwidth_gbps = 0;
  double matrix_tflops = 0;
  std::string matrix_dtype;
  std::string measured_at;
};

// Reads the peaks cached in `cache_file` when they were measured on the same device; else
// measures them (a few seconds) and writes the cache atomically.
DevicePeaks load_or_measure_peaks(DeviceApi& device, DeviceRuntime& runtime,
                                  const std::string& torch_device, const std::string& device_name,
                                  const std::filesystem::path& cache_file);

}  // namespace caliber
