#pragma once

#include "engine/device/device_driver.h"

namespace caliber {

// Any accelerator torch can drive, through PyTorch's device-generic runtime: the DeviceApi of
// make_generic_device_api and c10's DeviceAllocator statistics (no GEMM tuner). Compiled in every
// build; it takes the backends without glue of their own, and any under --device-api generic.
DeviceDriver generic_device_driver();

}  // namespace caliber
