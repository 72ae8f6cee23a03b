#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "timing/timer_context.h"

namespace caliber {

// A capture left the device context unusable: the op stops, named capture-incompatible, and the
// process that ran it should not run another op (the batch driver replaces the worker after any
// failure).
class CapturePoisonedError : public Error {
 public:
  CapturePoisonedError(std::string_view op, std::string_view detail);
};

// Turns an exception raised while timing into caliber's error: a fatal verdict stops the run
// (kDeviceFatal, never a latency), anything else fails the op (kOpFailure). A caliber::Error
// passes unchanged. Call it from a catch block.
[[noreturn]] void rethrow_classified(const std::exception& e, const MeasureOptions& options,
                                     std::string_view timer);

// Runs `body`, classifying whatever it throws.
template <typename Body>
auto with_classified_failures(const MeasureOptions& options, std::string_view timer, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const std::exception& e) {
    rethrow_classified(e, options, timer);
  }
}

// What the graph timer does after `phase` (warmup, capture, replay) failed: fatal -> device
// fatal error; poisoned verdict or an unhealthy device -> CapturePoisonedError; refused -> fall
// back; no matching wording -> op failure. Call it from a catch block.
TimerResult graph_failure_verdict(const TimerContext& ctx, std::string_view phase,
                                  const std::exception& e);

}  // namespace caliber
