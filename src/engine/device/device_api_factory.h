#pragma once

#include <memory>

#include "backend/backend_descriptor.h"
#include "timing/device_api.h"

namespace caliber {

// The DeviceApi for a backend's device: the host for cpu, the CUDA glue for cuda (when this build
// has it), PyTorch's device-generic runtime for every other backend, or for any accelerator when
// `generic` is asked (--device-api generic).
std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index,
                                           bool generic = false);

// Whether this build has the backend's own glue (host, CUDA) rather than only the generic path.
bool has_native_device_api(const BackendDescriptor& backend);

}  // namespace caliber
