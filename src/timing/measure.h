#pragma once

#include "backend/timer_plan.h"
#include "timing/device_api.h"
#include "timing/measure_options.h"
#include "timing/measurement.h"

namespace caliber {

// The one entry point the engine calls: measures `call` with the plan's primary timer, falling
// back per shape to the plan's fallback (marker fallback[phase=..,repeat=N]) when the primary is
// refused. Throws Error: kOpFailure when the op fails (CapturePoisonedError when a capture left
// the context unusable), kDeviceFatal on a fatal verdict, kUsage for a caliber the plan cannot
// give (cold cache without a flush).
Measurement measure(DeviceApi& api, const TimerPlan& plan, const MeasureOptions& options,
                    const Call& call);

}  // namespace caliber
