#pragma once

#include <memory>

#include "backend/backend_descriptor.h"
#include "engine/device/device_runtime.h"
#include "timing/device_api.h"

namespace caliber {

// The DeviceApi for a backend's device, from its driver (engine/device/device_driver.h): the
// host for cpu, the CUDA glue for cuda (when this build has it), PyTorch's device-generic runtime
// for every other accelerator, or for any accelerator when `generic` is asked (--device-api
// generic). Throws a usage error naming the backend when this build cannot drive it.
std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index,
                                           bool generic = false);

// The DeviceRuntime of the backend's devices (memory statistics, GEMM tuner): the backend's own
// driver's where it has one (also under --device-api generic), else the generic driver's.
std::unique_ptr<DeviceRuntime> make_device_runtime(const BackendDescriptor& backend);

// Whether this build has the backend's own glue (host, CUDA) rather than only the generic path.
bool has_native_device_api(const BackendDescriptor& backend);

}  // namespace caliber
