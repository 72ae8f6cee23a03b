#pragma once

#include <functional>
#include <vector>

#include "timing/timer_context.h"
#include "timing/warmup.h"

namespace caliber {

// Takes `n` samples, each in milliseconds (one call's latency, or a replay / batch divided by
// its calls).
using SampleSource = std::function<std::vector<double>(int n)>;

// The measurement loop every timer shares: `repeats` runs of the stopping rule over `source`,
// with the throttle guard around each batch, summarised into a Measurement of `timer`.
// `sample_cost_ms` is the device time of one sample (sizes the first batches).
Measurement take_measurement(const TimerContext& ctx, Timer timer, int repeats,
                             double sample_cost_ms, const SampleSource& source);

// Records the warmup (calls and wall time) in the measurement.
void record_warmup(const Warmup& warmup, Measurement& m);

}  // namespace caliber
