#pragma once

#include "core/choice.h"

namespace caliber {

// Which DeviceApi drives an accelerator. `native`: the backend's own glue (CUDA's graphs,
// batches and activity tracing), where this build has it. `generic`: PyTorch's device-generic
// runtime (c10 streams and events, at::accelerator), which serves any backend torch can drive,
// with the timers that runtime offers. `auto`: native where there is one, else generic.
enum class DeviceApiKind { kAuto, kNative, kGeneric };

const Choice<DeviceApiKind>& device_api_choice();
inline const char* to_string(DeviceApiKind v) { return device_api_choice().name(v); }

}  // namespace caliber
