#pragma once

#include <optional>

#include "timing/device_api.h"

namespace caliber {

// Reads the SM clock around each batch of samples. A batch that started or ended below
// `fraction` x the maximum clock ran throttled (power, thermal, or an idle clock that had not
// ramped up), so its samples are marked; the measurement says how many were. Disabled when the
// backend cannot read clocks or the fraction is 0.
class ThrottleGuard {
 public:
  ThrottleGuard(DeviceApi& api, bool enabled, double fraction);

  bool active() const { return threshold_mhz_.has_value(); }
  // Call before a batch of samples.
  void before_batch();
  // Call after it; true when the batch's samples are to be marked throttled.
  bool after_batch();

 private:
  DeviceApi& api_;
  std::optional<double> threshold_mhz_;
  std::optional<int> clock_before_;
};

}  // namespace caliber
