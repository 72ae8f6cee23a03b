#pragma once

#include <optional>

#include "engine/device/device_driver.h"

namespace caliber {

// NVIDIA GPUs (backend cuda) through torch's CUDA runtime; nullopt in a build without the CUDA
// glue. Compiled in every build, so that the driver list needs no build switch of its own.
std::optional<DeviceDriver> cuda_device_driver();

}  // namespace caliber
