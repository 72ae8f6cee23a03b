#include "timing/throttle_guard.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"
#include "timing/measure.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

TEST(ThrottleGuard, MarksBatchWhenEitherReadingIsBelowFractionOfMax) {
  FakeDeviceApi api;
  api.max_clock_mhz = 2000;
  api.clock_mhz = {1900, 1900, 1900, 1700, 1700, 1900};
  ThrottleGuard guard(api, /*enabled=*/true, 0.9);
  ASSERT_TRUE(guard.active());
  guard.before_batch();
  EXPECT_FALSE(guard.after_batch());  // 1900, 1900
  guard.before_batch();
  EXPECT_TRUE(guard.after_batch());  // 1900, 1700
  guard.before_batch();
  EXPECT_TRUE(guard.after_batch());  // 1700, 1900
}

TEST(ThrottleGuard, InactiveWithoutMaxClockOrWhenDisabled) {
  FakeDeviceApi api;
  api.clock_mhz = {100};
  EXPECT_FALSE(ThrottleGuard(api, true, 0.9).active());
  api.max_clock_mhz = 2000;
  EXPECT_FALSE(ThrottleGuard(api, false, 0.9).active());
  EXPECT_FALSE(ThrottleGuard(api, true, 0).active());
}

TEST(ThrottleGuard, UnreadableClockMarksNothing) {
  FakeDeviceApi api;
  api.max_clock_mhz = 2000;
  ThrottleGuard guard(api, true, 0.9);
  guard.before_batch();
  EXPECT_FALSE(guard.after_batch());
}

TEST(ThrottleGuard, MeasurementCountsThrottledSamplesAndSaysSo) {
  FakeDeviceApi api;
  api.max_clock_mhz = 2000;
  // Fixed policy, 20 ms of 1 ms samples in two 10-sample batches; the second batch ends slow.
  api.clock_mhz = {1950, 1950, 1950, 1000};
  TimerPlan plan = plan_for(Timer::kDirect);
  plan.clock_guard = true;
  MeasureOptions options = test_options();
  options.throttle_fraction = 0.9;
  Measurement m = measure(api, plan, options, [] {});
  EXPECT_EQ(m.samples_ms.size(), 20u);
  EXPECT_EQ(m.throttled_samples, 10);
  EXPECT_EQ(std::count(m.throttled.begin(), m.throttled.end(), true), 10);
  EXPECT_FALSE(m.throttled.front());
  EXPECT_TRUE(m.throttled.back());
  EXPECT_EQ(m.markers.back(), "throttled=10");
}

TEST(ThrottleGuard, PlanWithoutClockGuardNeverReadsClocks) {
  FakeDeviceApi api;
  api.max_clock_mhz = 2000;
  api.clock_mhz = {100};
  TimerPlan plan = plan_for(Timer::kDirect);
  plan.clock_guard = false;
  Measurement m = measure(api, plan, test_options(), [] {});
  EXPECT_EQ(m.throttled_samples, 0);
  EXPECT_TRUE(m.markers.empty());
}

}  // namespace
}  // namespace caliber
