#pragma once

#include <memory>

#include "backend/backend_descriptor.h"
#include "engine/device/device_runtime.h"
#include "timing/device_api.h"

namespace caliber {

// The DeviceApi for a backend's device, from its driver (engine/device/device_driver.h): the
// host for cpu, the CUDA glue for cuda (when this build has it). Throws a usage error naming the
// backend when this build cannot drive it.
std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index);

// The DeviceRuntime of the backend's devices, from the same driver; the same usage error.
std::unique_ptr<DeviceRuntime> make_device_runtime(const BackendDescriptor& backend);

}  // namespace caliber
