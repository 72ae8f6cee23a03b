#include "timing/batch_timer.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"
#include "timing/measure.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

TEST(BatchTimer, SampleIsBatchTotalDividedByCalls) {
  FakeDeviceApi api;
  api.call_ms = {0.05};  // 1 ms target -> 20 calls per batch
  Measurement m = measure(api, plan_for(Timer::kBatch), test_options(), [] {});
  EXPECT_EQ(m.timer_used, Timer::kBatch);
  EXPECT_EQ(api.last_calls_per_batch, 20);
  EXPECT_EQ(m.calls_per_sample, 20);
  EXPECT_NEAR(m.latency_ms, 0.05, 1e-12);
}

TEST(BatchTimer, CallsPerBatchStayWithinTheLaunchQueueBound) {
  FakeDeviceApi api;
  api.call_ms = {0.001};
  measure(api, plan_for(Timer::kBatch), test_options(), [] {});
  EXPECT_EQ(api.last_calls_per_batch, test_options().batch.max_calls);
}

TEST(BatchTimer, DeadlockFallsBackToDirectWithMarker) {
  FakeDeviceApi api;
  api.batch_deadlocks = true;
  MeasureOptions options = test_options();
  options.batch.timeout_s = 0.5;
  Measurement m = measure(api, plan_for(Timer::kBatch), options, [] {});
  EXPECT_DOUBLE_EQ(api.timeout_seen_s, 0.5);
  EXPECT_EQ(m.timer_used, Timer::kDirect);
  ASSERT_FALSE(m.markers.empty());
  EXPECT_EQ(m.markers.front(), "fallback[phase=deadlock,repeat=1]");
  EXPECT_GT(m.latency_ms, 0);
}

TEST(BatchTimer, ColdCacheReleasesOneCallPerFlushedBatch) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  api.call_ms = {0.05};
  measure(api, plan_for(Timer::kBatch), options, [] {});
  EXPECT_EQ(api.last_calls_per_batch, 1);
  EXPECT_EQ(api.log.back(), "end");
  EXPECT_EQ(api.log[api.log.size() - 3], "flush");  // flush, begin, end
}

}  // namespace
}  // namespace caliber
