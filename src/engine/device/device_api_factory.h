#pragma once

#include <memory>

#include "backend/backend_descriptor.h"
#include "timing/device_api.h"

namespace caliber {

// The DeviceApi for a backend's device: the host for cpu, the CUDA glue for cuda (when this build
// has it). Throws a usage error naming the backend when this build cannot drive it.
std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index);

}  // namespace caliber
