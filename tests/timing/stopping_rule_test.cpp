#include "timing/stopping_rule.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

SamplingSettings adaptive() {
  SamplingSettings s;
  s.policy = SamplePolicy::kAdaptive;
  s.noise_target = 0.01;
  s.min_samples = 10;
  s.min_time_s = 0.01;
  s.max_time_s = 1.0;
  return s;
}

TEST(StoppingRule, FixedTakesRepMillisecondsOfSamplesInShortBatches) {
  SamplingSettings s;
  s.rep_ms = 100;
  StoppingRule rule(s);
  std::vector<double> samples;
  int batches = 0;
  while (int n = rule.next_batch(samples, 0, /*sample_cost_ms=*/1.0)) {
    EXPECT_LE(n, 10);  // about 10 ms per batch
    samples.insert(samples.end(), n, 1.0);
    ++batches;
  }
  EXPECT_EQ(samples.size(), 100u);
  EXPECT_EQ(batches, 10);
}

TEST(StoppingRule, FixedTakesAtLeastOneSampleOfASlowCall) {
  SamplingSettings s;
  s.rep_ms = 100;
  StoppingRule rule(s);
  EXPECT_EQ(rule.next_batch({}, 0, 500.0), 1);
  EXPECT_EQ(rule.next_batch({500.0}, 0.5, 500.0), 0);
}

TEST(StoppingRule, AdaptiveStartsWithMinSamples) {
  EXPECT_EQ(StoppingRule(adaptive()).next_batch({}, 0, 0.01), 10);
}

TEST(StoppingRule, AdaptiveStopsWhenNoiseBelowTarget) {
  std::vector<double> steady(20, 1.0);
  EXPECT_EQ(StoppingRule(adaptive()).next_batch(steady, 0.02, 1.0), 0);
}

TEST(StoppingRule, AdaptiveContinuesWhileNoisy) {
  std::vector<double> noisy;
  for (int i = 0; i < 20; ++i) noisy.push_back(i % 2 ? 1.0 : 2.0);
  EXPECT_GT(StoppingRule(adaptive()).next_batch(noisy, 0.02, 1.0), 0);
}

TEST(StoppingRule, AdaptiveHonoursMinTimeEvenWhenQuiet) {
  std::vector<double> steady(20, 0.01);
  // 20 samples in 5 ms: 5 ms more are needed at 0.25 ms each.
  EXPECT_NEAR(StoppingRule(adaptive()).next_batch(steady, 0.005, 0.01), 20, 1);
}

TEST(StoppingRule, AdaptiveStopsAtMaxTimeEvenWhenNoisy) {
  std::vector<double> noisy;
  for (int i = 0; i < 20; ++i) noisy.push_back(i % 2 ? 1.0 : 2.0);
  EXPECT_EQ(StoppingRule(adaptive()).next_batch(noisy, 1.0, 1.0), 0);
}

TEST(StoppingRule, AdaptiveNeverPlansPastMaxTime) {
  std::vector<double> noisy;
  for (int i = 0; i < 2000; ++i) noisy.push_back(i % 2 ? 1.0 : 2.0);
  // 2000 samples took 0.995 s (0.5 ms each): the 5 ms left hold 10 more, though growth and the
  // batch length would allow 20.
  EXPECT_EQ(StoppingRule(adaptive()).next_batch(noisy, 0.995, 0.5), 10);
}

TEST(StoppingRule, AdaptiveFloorGivesWayToTheCeilingDownToWhatAVerdictNeeds) {
  StoppingRule rule(adaptive());
  // 10 samples of 100 ms fit the 1 s ceiling; of 150 ms, 6 do; of 900 ms, none but the floor's
  // least, 5.
  EXPECT_EQ(rule.next_batch({}, 0, 100.0), 10);
  EXPECT_EQ(rule.next_batch({}, 0, 150.0), 6);
  EXPECT_EQ(rule.next_batch({}, 0, 900.0), StoppingRule::kFewestSamples);
  // Those 5 quiet samples are enough: the 4.5 s they took is past the ceiling anyway, and the
  // floor does not ask for more.
  std::vector<double> five(5, 900.0);
  EXPECT_EQ(rule.next_batch(five, 4.5, 900.0), 0);
  // The fixed policy's count is not the floor's.
  SamplingSettings fixed;
  fixed.rep_ms = 100;
  EXPECT_EQ(StoppingRule(fixed).next_batch({}, 0, 900.0), 1);
  // A floor already at or under the least stays as asked.
  SamplingSettings three = adaptive();
  three.min_samples = 3;
  EXPECT_EQ(StoppingRule(three).next_batch({}, 0, 900.0), 3);
}

TEST(StoppingRule, AQuietBoundedFloorStopsOnceItsSamplesAreIn) {
  // Four samples of 300 ms in 1.2 s: past the ceiling, so done whatever the floor (5 here).
  StoppingRule rule(adaptive());
  EXPECT_EQ(rule.next_batch(std::vector<double>(4, 300.0), 1.2, 300.0), 0);
  // Five samples of 150 ms took 0.75 s: under the ceiling, and 6 fit, so one more.
  EXPECT_EQ(rule.next_batch(std::vector<double>(5, 150.0), 0.75, 150.0), 1);
}

}  // namespace
}  // namespace caliber
