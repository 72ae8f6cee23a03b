#include "timing/failure_verdicts.h"

#include <fmt/format.h>

#include "timing/markers.h"

namespace caliber {

CapturePoisonedError::CapturePoisonedError(std::string_view op, std::string_view detail)
    : Error(ErrorKind::kOpFailure,
            fmt::format("{} (capture-incompatible): {}", capture_poisoned_text(op), detail)) {}

void rethrow_classified(const std::exception& e, const MeasureOptions& options,
                        std::string_view timer) {
  if (dynamic_cast<const Error*>(&e) != nullptr) throw;
  if (options.classifier.classify(e.what()) == CaptureVerdict::kFatal) {
    throw Error(ErrorKind::kDeviceFatal, fmt::format("{}: device failure under the {} timer: {}",
                                                     options.op, timer, e.what()));
  }
  throw Error(ErrorKind::kOpFailure,
              fmt::format("{}: failed under the {} timer: {}", options.op, timer, e.what()));
}

TimerResult graph_failure_verdict(const TimerContext& ctx, std::string_view phase,
                                  const std::exception& e) {
  if (dynamic_cast<const Error*>(&e) != nullptr) throw;
  const std::string& op = ctx.options.op;
  CaptureVerdict verdict = ctx.options.classifier.classify(e.what());
  if (verdict == CaptureVerdict::kFatal) {
    throw Error(ErrorKind::kDeviceFatal,
                fmt::format("{}: device failure during graph {}: {}", op, phase, e.what()));
  }
  // A refusal wording is not proof the context survived; the probe is.
  if (verdict == CaptureVerdict::kPoisoned || !ctx.api.healthy()) {
    throw CapturePoisonedError(op, fmt::format("graph {} failed: {}", phase, e.what()));
  }
  if (verdict == CaptureVerdict::kRefused) return TimerResult::fall_back(std::string(phase));
  throw Error(ErrorKind::kOpFailure, fmt::format("{}: graph {} failed: {}", op, phase, e.what()));
}

}  // namespace caliber
