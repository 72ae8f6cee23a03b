#include "timing/measure.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

TEST(Measure, ColdCacheWithoutFlushIsAUsageError) {
  FakeDeviceApi api;
  TimerPlan plan = plan_for(Timer::kHost);
  plan.l2_flush = false;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  try {
    measure(api, plan, options, [] {});
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("cold"), std::string::npos);
  }
}

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

TEST(MeasureOptionsFromKnobs, CarriesSamplingAndCaliberKnobs) {
  Knobs knobs;
  knobs.cache = CacheState::kCold;
  knobs.policy = SamplePolicy::kAdaptive;
  knobs.repeat = 4;
  knobs.noise_target = 0.01;
  knobs.quantiles = {0.2};
  MeasureOptions options =
      measure_options_from_knobs(knobs, "softmax", testing::test_classifier(), true);
  EXPECT_EQ(options.op, "softmax");
  EXPECT_TRUE(options.capture_denied);
  EXPECT_EQ(options.cache, CacheState::kCold);
  EXPECT_EQ(options.sampling.policy, SamplePolicy::kAdaptive);
  EXPECT_DOUBLE_EQ(options.sampling.noise_target, 0.01);
  EXPECT_EQ(options.repeat, 4);
  EXPECT_EQ(options.quantiles, (std::vector<double>{0.2}));
  EXPECT_EQ(options.classifier.classify("capture unjoined"), CaptureVerdict::kPoisoned);
}

}  // namespace
}  // namespace caliber
