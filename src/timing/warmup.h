#pragma once

#include "timing/device_api.h"

namespace caliber {

struct Warmup {
  int calls = 0;
  double elapsed_ms = 0;   // wall time, first call (JIT, autotune) included
  double per_call_ms = 0;  // device time of one settled call, from the last chunk
};

// Runs the call until at least `min_calls` calls and `min_ms` of wall time have passed, in
// doubling chunks between device events, the last one cut to what the time left needs. The first
// call (where JIT compilation and autotuning happen) is never the estimate: the estimate is the
// median of the last two chunks, which start after it. `calls_made` calls of the same call on the
// same inputs ran just before (the engine's untimed call): they count towards `min_calls`, and
// the first of them was the first call, but never more than one call less is run.
Warmup warm_up(DeviceApi& api, const Call& call, int min_calls, double min_ms,
               const Call& before_each, int calls_made = 0);

}  // namespace caliber
