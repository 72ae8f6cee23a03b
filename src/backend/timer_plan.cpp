#include "backend/timer_plan.h"

#include <fmt/ranges.h>

#include <algorithm>

#include "core/error.h"

namespace caliber {

std::vector<Timer> available_timers(const Capabilities& caps) {
  std::vector<Timer> timers;
  if (caps.graph_capture) timers.push_back(Timer::kGraph);
  if (caps.device_events) timers.push_back(Timer::kDirect);
  if (caps.blocking_kernel_batch) timers.push_back(Timer::kBatch);
  if (caps.kernel_activity) timers.push_back(Timer::kKernel);
  timers.push_back(Timer::kHost);
  return timers;
}

TimerPlan derive_timer_plan(const Capabilities& caps, Timer requested, bool graph_enabled,
                            const std::string& backend_name) {
  TimerPlan plan;
  plan.available = available_timers(caps);
  plan.l2_flush = caps.l2_flush;
  plan.clock_guard = caps.clock_query;
  plan.rng_guard = caps.default_rng_generators;
  plan.device_delay = caps.device_delay;
  Timer everyday = caps.device_events ? Timer::kDirect : Timer::kHost;
  if (requested == Timer::kAuto) {
    plan.primary = caps.graph_capture && graph_enabled ? Timer::kGraph : everyday;
  } else {
    if (std::find(plan.available.begin(), plan.available.end(), requested) ==
        plan.available.end()) {
      std::vector<std::string> names;
      for (Timer t : plan.available) names.push_back(to_string(t));
      throw_usage("--timer: '{}' is not available on backend {} (available: auto, {})",
                  to_string(requested), backend_name, fmt::join(names, ", "));
    }
    plan.primary = requested;
  }
  // Graph and batch timers can be refused per shape; both fall back to the always-available
  // event timer.
  if (plan.primary == Timer::kGraph || plan.primary == Timer::kBatch) plan.fallback = everyday;
  return plan;
}

void check_cache_state(const TimerPlan& plan, CacheState cache, const std::string& backend_name) {
  if (cache == CacheState::kCold && !plan.l2_flush) {
    throw_usage("--cache: 'cold' needs a cache flush, which backend {} lacks (accepted: hot)",
                backend_name);
  }
}

void check_selftest_delay(const TimerPlan& plan, double fraction, const std::string& backend_name) {
  if (fraction <= 0) return;
  if (!plan.device_delay) {
    throw_usage(
        "--selftest-delay: {} needs a device-side delay, which backend {} lacks (accepted: 0 "
        "there; the delay runs on cuda)",
        fraction, backend_name);
  }
  if (plan.primary != Timer::kGraph) {
    throw_usage(
        "--selftest-delay: {} delays graph-timed rows, but the timer is {} (accepted: "
        "--timer graph or auto)",
        fraction, to_string(plan.primary));
  }
}

}  // namespace caliber
