#include "timing/markers.h"

#include <fmt/format.h>

#include "core/result_row.h"

namespace caliber {

std::string fallback_marker(std::string_view phase, int repeat) {
  return fmt::format("fallback[phase={},repeat={}]", phase, repeat);
}

std::string repeat_skipped_marker(int requested, std::string_view reason) {
  return fmt::format("repeat_skipped[repeat={},reason={}]", requested, reason);
}

std::string throttled_marker(int samples) { return fmt::format("throttled={}", samples); }

std::string captures_bounded_marker(int captured, int asked, std::string_view reason) {
  return fmt::format("captures_bounded[{}/{},{}]", captured, asked, reason);
}

std::string captures_grown_marker(int captured, int asked) {
  return fmt::format("captures_grown[{}/{},spread]", captured, asked);
}

std::string no_device_work_marker() { return std::string(kNoDeviceWorkMarker); }

std::string capture_poisoned_text(std::string_view op) {
  return fmt::format("BENCHMARK_CAPTURE_POISONED {}", op);
}

}  // namespace caliber
