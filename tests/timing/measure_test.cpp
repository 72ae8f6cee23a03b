#include "timing/measure.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

TEST(Measure, UnresolvedAutoTimerIsAnInternalError) {
  FakeDeviceApi api;
  try {
    measure(api, plan_for(Timer::kAuto), test_options(), [] {});
    FAIL() << "expected an internal error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInternal);
  }
}

TEST(Measure, RecordsCaliberAndWallTime) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.sampling.policy = SamplePolicy::kAdaptive;
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.policy, SamplePolicy::kAdaptive);
  EXPECT_EQ(m.cache, CacheState::kHot);
  EXPECT_GT(m.wall_s, 0);
  EXPECT_GT(m.warmup_calls, 0);
}

TEST(Measure, AdaptivePolicyStopsEarlyOnAQuietDevice) {
  FakeDeviceApi quiet;
  MeasureOptions options = test_options();
  options.sampling.policy = SamplePolicy::kAdaptive;
  options.sampling.min_samples = 10;
  options.sampling.min_time_s = 0;
  options.sampling.noise_target = 0.02;
  Measurement m = measure(quiet, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.samples_ms.size(), 10u);

  FakeDeviceApi noisy;
  noisy.call_ms = {1.0, 1.3, 0.8, 1.6, 0.7};
  Measurement n = measure(noisy, plan_for(Timer::kDirect), options, [] {});
  EXPECT_GT(n.samples_ms.size(), 10u);
  EXPECT_LE(n.noise, options.sampling.noise_target);
}

TEST(Measure, AdaptivePolicyGivesUpAtMaxTimeOnANoisyDevice) {
  FakeDeviceApi noisy;
  noisy.call_ms = {1.0, 1.3, 0.8, 1.6, 0.7};  // 1 ms calls: about 200 fit in 0.2 s
  MeasureOptions options = test_options();
  options.sampling.policy = SamplePolicy::kAdaptive;
  options.sampling.noise_target = 0.001;
  options.sampling.max_time_s = 0.2;
  Measurement m = measure(noisy, plan_for(Timer::kDirect), options, [] {});
  EXPECT_GT(m.noise, options.sampling.noise_target);
  EXPECT_NEAR(static_cast<double>(m.samples_ms.size()), 200, 20);
}

}  // namespace
}  // namespace caliber
