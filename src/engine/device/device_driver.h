#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend_descriptor.h"
#include "engine/device/device_runtime.h"
#include "timing/device_api.h"

namespace caliber {

// The glue that drives one backend's devices: its DeviceApi (timing), its DeviceRuntime
// (memory statistics, GEMM tuner) and what it can tell without a device.
struct DeviceDriver {
  std::string backend;      // the name of the backend descriptor it drives
  bool gemm_tuner = false;  // the runtime has a GEMM tuner
  std::function<std::unique_ptr<DeviceApi>(const BackendDescriptor&, int device_index)> make_api;
  std::function<std::unique_ptr<DeviceRuntime>()> make_runtime;
  std::function<std::string()> runtime_version;  // "CUDA runtime 13.0"; empty when unknown
};

// The drivers of this build, the host's first. This list is the one seam where device glue
// joins the engine: each glue under engine/device/<glue>/ contributes its driver here, when the
// build has it.
const std::vector<DeviceDriver>& device_drivers();

// The driver of `backend`; nullptr when this build cannot drive it.
const DeviceDriver* find_device_driver(const std::string& backend);
// The backends this build can drive, for error messages: "cpu, cuda".
std::string drivable_backends();

}  // namespace caliber
