#pragma once

#include "engine/device/device_driver.h"

namespace caliber {

// The host CPU (backend cpu): the host DeviceApi, and a runtime without caching-allocator
// statistics or GEMM tuner.
DeviceDriver host_device_driver();

}  // namespace caliber
