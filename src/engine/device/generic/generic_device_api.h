#pragma once

#include <memory>

#include "backend/backend_descriptor.h"
#include "timing/device_api.h"

namespace caliber {

// Any device torch can drive, through PyTorch's device-generic runtime: c10 streams and events
// through the backend's DeviceGuardImpl, the backend's own graph class where it works, a device
// fill for the cache flush. No vendor header is involved, so it is compiled in every build; what
// it offers is what probe_accelerator found (the timer plan never asks for more, and asking
// throws a DeviceError saying what the runtime lacks). Loads the backend first (load_backend).
std::unique_ptr<DeviceApi> make_generic_device_api(const BackendDescriptor& backend,
                                                   int device_index);

}  // namespace caliber
