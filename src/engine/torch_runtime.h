#pragma once

#include <string>

namespace caliber {

// The version of the torch the engine was built against and runs with. The device runtime's
// version comes from the device's driver (engine/device/device_context.h).
std::string torch_version();

}  // namespace caliber
