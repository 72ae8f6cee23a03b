#include "timing/call_activities.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

DeviceActivity kernel(uint64_t start, uint64_t end) { return {ActivityKind::kKernel, start, end}; }
DeviceActivity memset_(uint64_t start, uint64_t end) { return {ActivityKind::kMemset, start, end}; }
DeviceActivity memcpy_(uint64_t start, uint64_t end) { return {ActivityKind::kMemcpy, start, end}; }

TEST(AttributeActivities, CountsAndTimesEachKindPerCallWindow) {
  // Two calls; records arrive out of order, as CUPTI's buffers deliver them.
  std::vector<DeviceActivity> records = {kernel(1500, 1800), memset_(1100, 1150),
                                         kernel(1200, 1400), memcpy_(2100, 2130),
                                         kernel(2200, 2600)};
  std::vector<CallActivities> calls = attribute_activities(records, {{1000, 1900}, {2000, 2700}});
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].kernels, 2);
  EXPECT_EQ(calls[0].memsets, 1);
  EXPECT_EQ(calls[0].memcpys, 0);
  EXPECT_EQ(calls[0].kernel_ns, 500u);
  EXPECT_EQ(calls[0].memset_ns, 50u);
  EXPECT_EQ(calls[0].total_ns(), 550u);
  EXPECT_EQ(calls[1].kernels, 1);
  EXPECT_EQ(calls[1].memcpys, 1);
  EXPECT_EQ(calls[1].memcpy_ns, 30u);
  EXPECT_DOUBLE_EQ(calls[1].total_ms(), 430e-6);
}

TEST(AttributeActivities, WorkBeforeTheWindowIsTheFlushAndNotTheCalls) {
  // The flush memset ran before the call's window opened; a kernel that starts inside the
  // window and ends after it is still the call's.
  std::vector<CallActivities> calls =
      attribute_activities({memset_(100, 900), kernel(1000, 2500)}, {{950, 2000}});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].memsets, 0);
  EXPECT_EQ(calls[0].kernels, 1);
  EXPECT_EQ(calls[0].kernel_ns, 1500u);
}

TEST(AttributeActivities, OverlappingKernelsOfOneCallAreSummed) {
  std::vector<CallActivities> calls =
      attribute_activities({kernel(100, 300), kernel(150, 350)}, {{0, 400}});
  EXPECT_EQ(calls[0].kernel_ns, 400u);
}

TEST(AttributeActivities, AWindowWithoutWorkIsAnEmptyCall) {
  std::vector<CallActivities> calls = attribute_activities({kernel(10, 20)}, {{100, 200}});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].total_ns(), 0u);
  EXPECT_EQ(calls[0].kernels, 0);
}

CallActivities call_of(int kernels, uint64_t kernel_ns, int memsets, uint64_t memset_ns) {
  CallActivities c;
  c.kernels = kernels;
  c.kernel_ns = kernel_ns;
  c.memsets = memsets;
  c.memset_ns = memset_ns;
  return c;
}

TEST(SummarizeActivities, TakesTheMostFrequentCountsAndMedianTimes) {
  ActivitiesPerCall a = summarize_activities(
      {call_of(7, 90'000, 1, 2'000), call_of(7, 91'000, 1, 2'000), call_of(8, 99'000, 1, 3'000)});
  EXPECT_EQ(a.kernels, 7);
  EXPECT_EQ(a.memsets, 1);
  EXPECT_EQ(a.memcpys, 0);
  EXPECT_DOUBLE_EQ(a.kernel_us, 91.0);
  EXPECT_DOUBLE_EQ(a.memset_us, 2.0);
  EXPECT_EQ(a.calls, 3);
  EXPECT_TRUE(a.counts_vary);
}

TEST(SummarizeActivities, ATieBetweenCountsTakesTheSmaller) {
  ActivitiesPerCall a = summarize_activities({call_of(2, 1, 0, 0), call_of(1, 1, 0, 0)});
  EXPECT_EQ(a.kernels, 1);
}

TEST(SummarizeActivities, SteadyCountsDoNotVary) {
  ActivitiesPerCall a = summarize_activities({call_of(1, 5'000, 0, 0), call_of(1, 5'000, 0, 0)});
  EXPECT_FALSE(a.counts_vary);
  EXPECT_DOUBLE_EQ(a.kernel_us, 5.0);
}

TEST(SummarizeActivities, NoCallsIsAnEmptySummary) {
  ActivitiesPerCall a = summarize_activities({});
  EXPECT_EQ(a.calls, 0);
  EXPECT_EQ(a.kernels, 0);
}

}  // namespace
}  // namespace caliber
