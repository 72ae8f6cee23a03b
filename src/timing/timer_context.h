#pragma once

#include <optional>
#include <string>
#include <utility>

#include "backend/timer_plan.h"
#include "timing/device_api.h"
#include "timing/measure_options.h"
#include "timing/measurement.h"

namespace caliber {

// What every timer works with: the device, the plan's guards, the options and the bound call.
struct TimerContext {
  DeviceApi& api;
  const TimerPlan& plan;
  const MeasureOptions& options;
  const Call& call;

  // The same device, plan and call measured under other options (which must outlive it).
  TimerContext with_options(const MeasureOptions& other) const { return {api, plan, other, call}; }

  // Runs before each sample, outside the timed region: an L2 flush for the cold caliber,
  // nothing for hot.
  Call before_each() const {
    if (options.cache != CacheState::kCold) return {};
    DeviceApi* device = &api;
    const auto bytes = static_cast<uint64_t>(options.flush_mb * 1024 * 1024);
    const FlushMethod method = options.flush_method;
    return [device, bytes, method] { device->flush_cache(bytes, method); };
  }
};

// A timer that can be refused for a shape (graph, batch) either measures or asks the entry
// point for the plan's fallback, naming the phase that failed.
struct TimerResult {
  std::optional<Measurement> measurement;
  std::string fallback_phase;

  static TimerResult measured(Measurement m) { return {std::move(m), {}}; }
  static TimerResult fall_back(std::string phase) { return {std::nullopt, std::move(phase)}; }
};

}  // namespace caliber
