#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backend/backend_descriptor.h"

namespace caliber {

const std::vector<BackendDescriptor>& all_backends();

// Resolves a name or alias, case-insensitively; throws a usage error naming `knob` and listing
// the accepted names and aliases.
const BackendDescriptor& find_backend(const std::string& knob, const std::string& name);
std::string accepted_backend_names();

// Devices a backend sees, enumerated once per process, with a timeout so a wedged driver
// cannot hang start-up (the enumeration then fails with a clear error).
const std::vector<DeviceInfo>& devices_of(const BackendDescriptor& backend);

// --backend if given, else ZL_BACKEND (both already folded into `requested`), else the first
// backend with a device, else cpu.
const BackendDescriptor& select_backend(const std::string& requested, const std::string& knob);

// Refuses to go on when the selected backend has no device present (or the requested index is
// not visible), saying what was found instead.
void guard_device_present(const BackendDescriptor& backend, int device_index);

}  // namespace caliber
