#pragma once

#include "backend/backend_descriptor.h"
#include "engine/device/generic/accelerator_features.h"

namespace caliber {

// Exercises PyTorch's device-generic runtime on one device of an already loaded backend (see
// load_backend): a pool stream, timed events, stream/device synchronisation, a device fill, the
// allocator's statistics and the cache size the backend reports. Probed once per process and
// device; throws a usage Error when torch has no such device type or device index.
const AcceleratorFeatures& probe_accelerator(const BackendDescriptor& backend, int device_index);

}  // namespace caliber
