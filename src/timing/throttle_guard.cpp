#include "timing/throttle_guard.h"

#include <algorithm>

namespace caliber {

ThrottleGuard::ThrottleGuard(DeviceApi& api, bool enabled, double fraction) : api_(api) {
  if (!enabled || fraction <= 0) return;
  std::optional<int> max_mhz = api_.max_sm_clock_mhz();
  if (max_mhz && *max_mhz > 0) threshold_mhz_ = fraction * *max_mhz;
}

void ThrottleGuard::before_batch() {
  if (active()) clock_before_ = api_.sm_clock_mhz();
}

bool ThrottleGuard::after_batch() {
  if (!active()) return false;
  std::optional<int> after = api_.sm_clock_mhz();
  std::optional<int> lowest = clock_before_;
  if (after) lowest = lowest ? std::min(*lowest, *after) : *after;
  clock_before_.reset();
  // An unreadable clock proves nothing either way; only a reading below the threshold marks.
  return lowest && *lowest < *threshold_mhz_;
}

}  // namespace caliber
