#pragma once

#include <functional>
#include <vector>

#include "timing/timer_context.h"
#include "timing/warmup.h"

namespace caliber {

// Takes `n` samples, each in milliseconds (one call's latency, or a replay / batch divided by
// its calls).
using SampleSource = std::function<std::vector<double>(int n)>;

// What the stopping rule judges the noise of, when not the samples as taken: the graph timer
// hands it each capture's samples scaled to one level, so that the captures' spread (which more
// replays cannot narrow) does not keep it sampling.
using NoiseView = std::function<std::vector<double>(const std::vector<double>& samples)>;

// The measurement loop every timer shares: `repeats` runs of the stopping rule over `source`,
// with the throttle guard around each batch, summarised into a Measurement of `timer`.
// `sample_cost_ms` is the device time of one sample (sizes the first batches).
Measurement take_measurement(const TimerContext& ctx, Timer timer, int repeats,
                             double sample_cost_ms, const SampleSource& source,
                             const NoiseView& judged = {});

// Takes `n` more samples into a one-repeat measurement, in one batch under the throttle guard,
// and summarises it again: for a timer that adds sources after the stopping rule was satisfied
// (the graph timer's grown captures).
void extend_measurement(const TimerContext& ctx, int n, const SampleSource& source, Measurement& m);

// Records the warmup (calls and wall time) in the measurement.
void record_warmup(const Warmup& warmup, Measurement& m);

}  // namespace caliber
