#pragma once

#include <string>

#include "backend/backend_descriptor.h"

namespace caliber {

// Loads an out-of-tree backend as PyTorch loads it, before any device work: `library` when
// given (python:MODULE is imported through the embedded interpreter, anything else is a shared
// library opened into the process), else the backend's own Python package (torch_musa,
// torch_npu, torch_opencl). The embedded interpreter is started either way: its `import torch`
// registers every device runtime torch ships (and autoloads installed backends), so c10 knows
// the device type afterwards. Once per process; throws a usage Error naming the package or
// library that cannot be loaded.
void load_backend(const BackendDescriptor& backend, const std::string& library);

// The --backend-library this process was asked for; the torch enumerator loads it when it counts
// the devices of a backend that only torch can count.
void request_backend_library(const std::string& library);
std::string requested_backend_library();

}  // namespace caliber
