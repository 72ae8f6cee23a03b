#pragma once

#include "timing/timer_context.h"

namespace caliber {

// `batch`: N calls queued behind a blocking kernel, released at once, total / N: launch gaps
// removed without a graph, for ops that cannot be captured. A call that synchronises the host
// would wait on the blocked stream forever; the device gives up after the timeout and the timer
// asks for the fallback (phase `deadlock`). Cold cache releases one call per batch, flushed
// before the blocking kernel.
TimerResult time_batch(const TimerContext& ctx);

}  // namespace caliber
