#include "backend/timer_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backend/registry.h"
#include "core/error.h"

namespace caliber {
namespace {

TimerPlan plan_for(const std::string& backend, Timer requested = Timer::kAuto,
                   bool graph_enabled = true) {
  const auto& b = find_backend("", backend);
  return derive_timer_plan(b.capabilities, requested, graph_enabled, b.name);
}

TEST(TimerPlan, CudaUsesGraphWithDirectFallback) {
  TimerPlan plan = plan_for("cuda");
  EXPECT_EQ(plan.primary, Timer::kGraph);
  ASSERT_TRUE(plan.fallback.has_value());
  EXPECT_EQ(*plan.fallback, Timer::kDirect);
  EXPECT_TRUE(plan.l2_flush);
  EXPECT_TRUE(plan.clock_guard);
  EXPECT_TRUE(plan.rng_guard);
}

TEST(TimerPlan, OtherAcceleratorsUseDirect) {
  for (const char* name : {"rocm", "musa", "ascend"}) {
    TimerPlan plan = plan_for(name);
    EXPECT_EQ(plan.primary, Timer::kDirect) << name;
    EXPECT_FALSE(plan.fallback.has_value()) << name;
  }
  EXPECT_FALSE(plan_for("ascend").rng_guard);
}

TEST(TimerPlan, ColdCacheWithoutFlushIsAUsageError) {
  TimerPlan plan = plan_for("cpu");
  plan.l2_flush = false;
  EXPECT_NO_THROW(check_cache_state(plan, CacheState::kHot, "cpu"));
  try {
    check_cache_state(plan, CacheState::kCold, "cpu");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("--cache: 'cold'"), std::string::npos);
  }
  plan.l2_flush = true;
  EXPECT_NO_THROW(check_cache_state(plan, CacheState::kCold, "cpu"));
}

TEST(TimerPlan, SelftestDelayNeedsTheDeviceDelayAndTheGraphTimer) {
  auto refusal = [](const TimerPlan& plan) -> std::string {
    try {
      check_selftest_delay(plan, 0.05, "x");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal(plan_for("cpu")).find("--selftest-delay: 0.05"), std::string::npos);
  EXPECT_NE(refusal(plan_for("cuda", Timer::kDirect)).find("timer is direct"), std::string::npos);
  EXPECT_EQ(refusal(plan_for("cuda")), "");
  EXPECT_NO_THROW(check_selftest_delay(plan_for("cpu"), 0, "cpu"));
}

TEST(TimerPlan, CpuUsesHostTimer) { EXPECT_EQ(plan_for("cpu").primary, Timer::kHost); }

TEST(TimerPlan, GraphDisabledByEnvironmentFallsToDirect) {
  EXPECT_EQ(plan_for("cuda", Timer::kAuto, false).primary, Timer::kDirect);
}

TEST(TimerPlan, DerivedFromCapabilitiesNotNames) {
  Capabilities caps{.device_events = true, .graph_capture = true};
  TimerPlan plan = derive_timer_plan(caps, Timer::kAuto, true, "imaginary");
  EXPECT_EQ(plan.primary, Timer::kGraph);
  EXPECT_EQ(*plan.fallback, Timer::kDirect);
}

TEST(TimerPlan, UnavailableTimerIsAUsageError) {
  try {
    plan_for("rocm", Timer::kGraph);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("--timer: 'graph' is not available on backend rocm"));
  }
}

TEST(TimerPlan, BatchFallsBackToDirect) {
  TimerPlan plan = plan_for("cuda", Timer::kBatch);
  EXPECT_EQ(plan.primary, Timer::kBatch);
  EXPECT_EQ(*plan.fallback, Timer::kDirect);
}

}  // namespace
}  // namespace caliber
