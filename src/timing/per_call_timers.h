#pragma once

#include "timing/timer_context.h"

namespace caliber {

// The timers whose sample is one call. They share warmup, sampling and repeats, and differ only
// in what the device measures around a call.

// `direct`: device events around each call, median over calls; repeat=N takes the median of N
// such medians (skipped, with a marker, for return_mode=all and quantiles).
Measurement time_direct(const TimerContext& ctx);

// `host`: wall clock around call + synchronize (the CPU backend). repeat=N as for direct.
Measurement time_host(const TimerContext& ctx);

// `kernel`: the summed durations of the device work one call launched, from activity tracing;
// launch gaps and host overhead are excluded by construction. Under the adaptive policy it
// samples for at least kKernelMinTimeS (the fixed policy's window), or --min-time if longer.
Measurement time_kernel(const TimerContext& ctx);
inline constexpr double kKernelMinTimeS = 0.1;

}  // namespace caliber
