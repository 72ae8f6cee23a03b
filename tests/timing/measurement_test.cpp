#include "timing/measurement.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

Measurement summarized(const std::vector<std::vector<double>>& runs,
                       ReturnMode mode = ReturnMode::kMedian,
                       const std::vector<double>& quantiles = {}) {
  Measurement m;
  summarize(runs, mode, quantiles, m);
  return m;
}

TEST(Summarize, MedianOfOddAndEvenSamples) {
  EXPECT_DOUBLE_EQ(summarized({{3, 1, 2}}).median_ms, 2);
  EXPECT_DOUBLE_EQ(summarized({{4, 1, 3, 2}}).median_ms, 2.5);
}

TEST(Summarize, QuantilesInterpolateLinearly) {
  Measurement m = summarized({{10, 20, 30, 40, 50}}, ReturnMode::kMedian, {0.2, 0.5, 0.9});
  ASSERT_EQ(m.quantiles_ms.size(), 3u);
  EXPECT_DOUBLE_EQ(m.quantiles_ms[0].second, 18);
  EXPECT_DOUBLE_EQ(m.quantiles_ms[1].second, 30);
  EXPECT_DOUBLE_EQ(m.quantiles_ms[2].second, 46);
}

TEST(Summarize, RepeatTakesMedianOfPerRepeatMediansNotPooledMedian) {
  // Pooled, the long third run would dominate (median 9); per repeat the medians are 1, 2, 9.
  Measurement m = summarized({{1, 1, 1}, {2, 2, 2}, {9, 9, 9, 9, 9, 9, 9}});
  EXPECT_EQ(m.repeat, 3);
  EXPECT_EQ(m.repeat_medians_ms, (std::vector<double>{1, 2, 9}));
  EXPECT_DOUBLE_EQ(m.median_ms, 2);
  EXPECT_DOUBLE_EQ(m.latency_ms, 2);
  EXPECT_EQ(m.samples_ms.size(), 13u);
}

TEST(Summarize, ReturnModeChoosesTheHeadlineLatency) {
  std::vector<std::vector<double>> runs = {{1, 2, 6}};
  EXPECT_DOUBLE_EQ(summarized(runs, ReturnMode::kMean).latency_ms, 3);
  EXPECT_DOUBLE_EQ(summarized(runs, ReturnMode::kMin).latency_ms, 1);
  EXPECT_DOUBLE_EQ(summarized(runs, ReturnMode::kMax).latency_ms, 6);
  EXPECT_DOUBLE_EQ(summarized(runs, ReturnMode::kAll).latency_ms, 2);
}

TEST(Summarize, MeanWithRepeatsIsMedianOfPerRepeatMeans) {
  Measurement m = summarized({{1, 3}, {10, 10}, {4, 6}}, ReturnMode::kMean);
  EXPECT_DOUBLE_EQ(m.latency_ms, 5);  // means 2, 10, 5
}

TEST(Summarize, NoiseIsZeroForIdenticalSamplesAndPositiveOtherwise) {
  EXPECT_DOUBLE_EQ(summarized({{2, 2, 2, 2}}).noise, 0);
  EXPECT_GT(summarized({{1, 2, 3, 4, 5}}).noise, 0);
}

TEST(FillResultRow, CopiesCaliberAndAppendsMarkers) {
  Measurement m = summarized({{1, 2, 3}});
  m.timer_used = Timer::kGraph;
  m.cache = CacheState::kCold;
  m.flush_method = FlushMethod::kWrite;  // the bare "cold" of earlier artifacts
  m.policy = SamplePolicy::kAdaptive;
  m.markers = {"throttled=1"};
  m.throttled_samples = 1;
  m.warmup_calls = 7;
  m.wall_s = 0.5;
  ResultRow row;
  row.markers = {"existing"};
  fill_result_row(m, row);
  EXPECT_EQ(row.timer_used, "graph");
  EXPECT_EQ(row.cache, "cold");
  EXPECT_EQ(row.policy, "adaptive");
  EXPECT_EQ(row.markers, (std::vector<std::string>{"existing", "throttled=1"}));
  EXPECT_EQ(row.sample_count, 3);
  EXPECT_DOUBLE_EQ(row.latency_ms, 2);
  EXPECT_EQ(row.throttled_samples, 1);
  EXPECT_EQ(row.warmup_calls, 7);
  EXPECT_DOUBLE_EQ(row.wall_s, 0.5);
}

}  // namespace
}  // namespace caliber
