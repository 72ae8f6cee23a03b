#include "timing/per_call_timers.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"
#include "timing/measure.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

// True when every timed region is immediately preceded by a flush and no flush happens inside
// one: the cold caliber flushes outside the timed region, before every sample.
bool flushed_before_every_sample(const std::vector<std::string>& log) {
  bool inside = false;
  int regions = 0;
  for (size_t i = 0; i < log.size(); ++i) {
    if (log[i] == "begin") {
      if (i == 0 || log[i - 1] != "flush") return false;
      inside = true;
      ++regions;
    } else if (log[i] == "end") {
      inside = false;
    } else if (log[i] == "flush" && inside) {
      return false;
    }
  }
  return regions > 0;
}

TEST(DirectTimer, RepeatTakesMedianOfPerRepeatMedians) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.repeat = 3;
  // Fixed policy: 20 ms of 1 ms calls per repeat.
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.timer_used, Timer::kDirect);
  EXPECT_EQ(m.repeat, 3);
  EXPECT_EQ(m.repeat_medians_ms.size(), 3u);
  EXPECT_DOUBLE_EQ(m.latency_ms, 1.0);
  EXPECT_EQ(m.samples_ms.size(), 60u);
}

TEST(DirectTimer, RepeatMedianIgnoresOneSlowRepeat) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.repeat = 3;
  options.sampling.warmup_ms = 0;  // warmup: exactly 3 calls (1 + 2)
  options.sampling.rep_ms = 4;     // 4 samples of 1 ms per repeat
  // warmup 3 calls, repeat 1: 1 ms, repeat 2: 9 ms, repeat 3: 2 ms.
  api.call_ms = {1, 1, 1, 1, 1, 1, 1, 9, 9, 9, 9, 2, 2, 2, 2};
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.repeat_medians_ms, (std::vector<double>{1, 9, 2}));
  EXPECT_DOUBLE_EQ(m.latency_ms, 2);
}

TEST(DirectTimer, QuantilesSkipRepeatWithMarker) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.repeat = 3;
  options.quantiles = {0.5};
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.repeat, 1);
  EXPECT_EQ(m.markers, (std::vector<std::string>{"repeat_skipped[repeat=3,reason=quantiles]"}));
  ASSERT_EQ(m.quantiles_ms.size(), 1u);
}

TEST(DirectTimer, WarmupRecordsCallsAndExcludesFirstCallFromEstimate) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.sampling.warmup_ms = 0;
  options.sampling.rep_ms = 5;
  // A 500 ms first call (JIT) must not size the sampling: 0.5 ms calls give 10 samples.
  api.call_ms.assign(30, 0.5);
  api.call_ms.front() = 500;
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.warmup_calls, 3);
  EXPECT_GE(m.warmup_ms, 500);
  EXPECT_EQ(m.samples_ms.size(), 10u);
}

TEST(DirectTimer, ColdCacheFlushesOutsideTheTimedRegionBeforeEverySample) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  EXPECT_EQ(m.cache, CacheState::kCold);
  EXPECT_TRUE(flushed_before_every_sample(api.log));
}

TEST(DirectTimer, ColdCacheFlushesTheSizeAsked) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  options.flush_mb = 256;
  measure(api, plan_for(Timer::kDirect), options, [] {});
  ASSERT_FALSE(api.flushed_bytes.empty());
  for (uint64_t bytes : api.flushed_bytes) EXPECT_EQ(bytes, 256u << 20);
}

TEST(DirectTimer, ColdCacheFlushesWithTheMethodAskedAndTheRowSaysWhich) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  options.flush_method = FlushMethod::kRead;
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  ASSERT_FALSE(api.flush_methods.empty());
  for (FlushMethod method : api.flush_methods) EXPECT_EQ(method, FlushMethod::kRead);
  ResultRow row;
  fill_result_row(m, row);
  EXPECT_EQ(row.cache, "cold,flush=read");
}

TEST(DirectTimer, TheRowKeepsTheFlushSizeOfTheColdCaliber) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  options.flush_mb = 256;
  Measurement m = measure(api, plan_for(Timer::kDirect), options, [] {});
  ResultRow row;
  fill_result_row(m, row);
  EXPECT_EQ(row.cache, "cold,flush_mb=256,flush=read");  // read: the default flush
  EXPECT_FALSE(row.activities_per_call.has_value());
  EXPECT_FALSE(row.kernel_only_us.has_value());
}

TEST(DirectTimer, HotCacheNeverFlushes) {
  FakeDeviceApi api;
  measure(api, plan_for(Timer::kDirect), test_options(), [] {});
  EXPECT_EQ(std::count(api.log.begin(), api.log.end(), "flush"), 0);
}

TEST(DirectTimer, OpExceptionBecomesOpFailureNamingTheOp) {
  FakeDeviceApi api;
  Call failing = [] { throw std::runtime_error("shape mismatch"); };
  try {
    measure(api, plan_for(Timer::kDirect), test_options(), failing);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
    EXPECT_NE(std::string(e.what()).find("mm"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("shape mismatch"), std::string::npos);
  }
}

TEST(DirectTimer, FatalWordingBecomesDeviceFatal) {
  FakeDeviceApi api;
  Call failing = [] { throw std::runtime_error("CUDA error: an illegal memory access"); };
  try {
    measure(api, plan_for(Timer::kDirect), test_options(), failing);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeviceFatal);
  }
}

TEST(KernelTimer, UsesActivityTracingAndIgnoresRepeat) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.repeat = 3;
  Measurement m = measure(api, plan_for(Timer::kKernel), options, [] {});
  EXPECT_EQ(m.timer_used, Timer::kKernel);
  EXPECT_GT(api.kernel_timings, 0);
  EXPECT_EQ(m.repeat, 1);
}

TEST(KernelTimer, RecordsTheActivitiesOfOneCallAndItsKernelOnlyTime) {
  FakeDeviceApi api;
  api.call_ms = {0.010};  // 10 us a call: one 8 us kernel and one 2 us memset
  api.memsets_per_call = 1;
  api.memset_ms = 0.002;
  Measurement m = measure(api, plan_for(Timer::kKernel), test_options(), [] {});
  EXPECT_NEAR(m.latency_ms, 0.010, 1e-9);  // the total still sums every kind
  ASSERT_TRUE(m.activities.has_value());
  EXPECT_EQ(m.activities->kernels, 1);
  EXPECT_EQ(m.activities->memsets, 1);
  EXPECT_EQ(m.activities->memcpys, 0);
  EXPECT_NEAR(m.activities->kernel_us, 8.0, 1e-6);
  EXPECT_NEAR(m.activities->memset_us, 2.0, 1e-6);
  EXPECT_EQ(m.activities->calls, static_cast<int>(m.samples_ms.size()));
  ResultRow row;
  fill_result_row(m, row);
  ASSERT_TRUE(row.kernel_only_us.has_value());
  EXPECT_NEAR(*row.kernel_only_us, 8.0, 1e-6);
  ASSERT_TRUE(row.activities_per_call.has_value());
  EXPECT_EQ(to_text(*row.activities_per_call), "kernels=1 memsets=1 memcpys=0");
}

TEST(KernelTimer, AdaptiveSamplesAtLeastTheFixedPolicysWindowWhereDirectStopsAtTheFloor) {
  // 1 ms calls of no noise: the adaptive rule is satisfied at once, so each timer stops at its
  // time floor: --min-time's 10 ms for direct, kKernelMinTimeS for kernel.
  MeasureOptions options = test_options();
  options.sampling.policy = SamplePolicy::kAdaptive;
  options.sampling.min_time_s = 0.01;
  FakeDeviceApi direct_api;
  Measurement direct = measure(direct_api, plan_for(Timer::kDirect), options, [] {});
  FakeDeviceApi kernel_api;
  Measurement kernel = measure(kernel_api, plan_for(Timer::kKernel), options, [] {});
  EXPECT_LT(direct.samples_ms.size(), 20u);
  EXPECT_GE(kernel.samples_ms.size(), static_cast<size_t>(kKernelMinTimeS * 1e3));
  // A longer --min-time still rules.
  options.sampling.min_time_s = 0.3;
  FakeDeviceApi longer_api;
  Measurement longer = measure(longer_api, plan_for(Timer::kKernel), options, [] {});
  EXPECT_GE(longer.samples_ms.size(), 300u);
}

TEST(DirectTimer, RecordsNoActivities) {
  FakeDeviceApi api;
  Measurement m = measure(api, plan_for(Timer::kDirect), test_options(), [] {});
  EXPECT_FALSE(m.activities.has_value());
}

TEST(HostTimer, MeasuresWithHostTimerAndHonoursRepeat) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.repeat = 2;
  Measurement m = measure(api, plan_for(Timer::kHost), options, [] {});
  EXPECT_EQ(m.timer_used, Timer::kHost);
  EXPECT_EQ(m.repeat, 2);
}

}  // namespace
}  // namespace caliber
