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
  // Drives any accelerator torch can drive (the generic glue, engine/device/generic/): it takes
  // a backend without a driver of its own, and any accelerator under --device-api generic.
  bool any_accelerator = false;
  std::function<std::unique_ptr<DeviceApi>(const BackendDescriptor&, int device_index)> make_api;
  std::function<std::unique_ptr<DeviceRuntime>(const BackendDescriptor&)> make_runtime;
  std::function<std::string()> runtime_version;  // "CUDA runtime 13.0"; empty when unknown
};

// The drivers of this build, the host's first. This list is the one seam where device glue
// joins the engine: each glue under engine/device/<glue>/ contributes its driver here, when the
// build has it.
const std::vector<DeviceDriver>& device_drivers();

// The driver made for `backend` itself (its native glue); nullptr when this build has none.
const DeviceDriver* find_device_driver(const std::string& backend);
// The driver that drives `backend`'s devices: the generic one when `generic` is asked or the
// backend has no driver of its own (an accelerator only), else its own; nullptr when none can.
const DeviceDriver* driver_for(const BackendDescriptor& backend, bool generic);
// The backends this build can drive, for error messages: "cpu, cuda".
std::string drivable_backends();

}  // namespace caliber
