#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backend/device_info.h"

namespace caliber {

// Devices of a backend that only torch can count (an out-of-tree PrivateUse1 backend has no
// runtime library caliber could dlopen). backend/ does not link torch, so the engine installs
// the enumerator at start-up; until then such a backend has no devices.
using TorchEnumerator = std::function<std::vector<DeviceInfo>(const std::string& backend_name)>;

void set_torch_enumerator(TorchEnumerator enumerator);

// The installed enumerator's answer for `backend_name`; no devices when none is installed. The
// enumerator may throw a usage Error (the backend's package is missing).
std::vector<DeviceInfo> enumerate_through_torch(const std::string& backend_name);

}  // namespace caliber
