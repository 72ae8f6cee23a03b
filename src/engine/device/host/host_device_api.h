#pragma once

#include <memory>

#include "timing/device_api.h"

namespace caliber {

// The CPU as a device: ATen's CPU ops return when their work is done, so wall clock around a
// call is the measurement. No graphs, batches or activity tracing (the plan never asks for
// them; asking throws). The cache flush overwrites a buffer larger than a server's last-level
// cache.
std::unique_ptr<DeviceApi> make_host_device_api();

}  // namespace caliber
