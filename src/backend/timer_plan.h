#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backend/capabilities.h"
#include "core/caliber_options.h"

namespace caliber {

// Which timer a run uses, what it falls back to per shape, and which guards apply; derived
// from capabilities alone.
struct TimerPlan {
  Timer primary = Timer::kDirect;
  std::optional<Timer> fallback;
  bool l2_flush = false;
  bool clock_guard = false;
  bool rng_guard = false;
  bool device_delay = false;
  std::vector<Timer> available;
};

std::vector<Timer> available_timers(const Capabilities& caps);

// `requested` may be kAuto. Throws a usage error naming --timer when the backend cannot run
// the requested timer. `graph_enabled` false (ZL_ENABLE_CUDAGRAPH=0) keeps auto off graphs.
TimerPlan derive_timer_plan(const Capabilities& caps, Timer requested, bool graph_enabled,
                            const std::string& backend_name);

// The cold caliber needs the plan's cache flush: a usage error naming --cache otherwise. Checked
// once, when a run is configured, before any device work.
void check_cache_state(const TimerPlan& plan, CacheState cache, const std::string& backend_name);

// --selftest-delay (a fraction of each graph-timed row's own time, added on the device) needs the
// graph timer and a backend that can queue a device delay: a usage error naming the flag
// otherwise.
void check_selftest_delay(const TimerPlan& plan, double fraction, const std::string& backend_name);

}  // namespace caliber
