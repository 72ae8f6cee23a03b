#pragma once

#include "timing/timer_context.h"

namespace caliber {

// `graph`: explicit warmup, then N calls captured into one device graph (under a throwaway RNG
// state where the backend has default generators); each sample is one replay divided by N.
// Cold cache captures one call per graph so that every timed call follows a flush. A deny-listed
// op or a refused warmup/capture/replay asks for the fallback; fatal and poisoned verdicts throw
// (see graph_failure_verdict).
TimerResult time_graph(const TimerContext& ctx);

}  // namespace caliber
