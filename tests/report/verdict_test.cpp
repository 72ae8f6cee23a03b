#include "report/verdict.h"

#include <gtest/gtest.h>

#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::synthetic_samples;

TEST(Verdict, ClearlyFasterSamplesAreFast) {
  auto a = synthetic_samples(1.00, 0.01, 200, 1);
  auto b = synthetic_samples(0.80, 0.01, 200, 2);
  auto c = compare_samples(a, b, {}, 7);
  EXPECT_EQ(c.verdict, Verdict::kFast) << c.reason;
  EXPECT_NEAR(c.speedup, 1.25, 0.01);
  EXPECT_GT(c.ci_low, 1.02);
  EXPECT_LE(c.ci_low, c.speedup);
  EXPECT_GE(c.ci_high, c.speedup);
}

TEST(Verdict, ClearlySlowerSamplesAreSlow) {
  auto a = synthetic_samples(1.00, 0.01, 200, 3);
  auto b = synthetic_samples(1.10, 0.01, 200, 4);
  auto c = compare_samples(a, b, {}, 7);
  EXPECT_EQ(c.verdict, Verdict::kSlow) << c.reason;
  EXPECT_LT(c.ci_high, 1 / 1.02);
}

TEST(Verdict, IdenticalDistributionsAreSame) {
  auto a = synthetic_samples(1.00, 0.02, 200, 5);
  auto b = synthetic_samples(1.00, 0.02, 200, 6);
  auto c = compare_samples(a, b, {}, 7);
  EXPECT_EQ(c.verdict, Verdict::kSame) << c.reason;
  EXPECT_GE(c.ci_low, 1 / 1.02);
  EXPECT_LE(c.ci_high, 1.02);
}

TEST(Verdict, OverlappingNoisyDistributionsAreUnsure) {
  // 30% spread: beyond the 10% noise limit, whatever the medians say.
  auto a = synthetic_samples(1.00, 0.30, 200, 8);
  auto b = synthetic_samples(1.05, 0.30, 200, 9);
  auto c = compare_samples(a, b, {}, 7);
  EXPECT_EQ(c.verdict, Verdict::kUnsure);
  EXPECT_NE(c.reason.find("noise"), std::string::npos) << c.reason;
}

TEST(Verdict, IntervalStraddlingTheEffectThresholdIsUnsure) {
  // Within the noise limit, but with few samples the interval spans both sides of -2%.
  VerdictOptions options;
  auto a = synthetic_samples(1.00, 0.08, 12, 10);
  auto b = synthetic_samples(1.02, 0.08, 12, 11);
  auto c = compare_samples(a, b, options, 7);
  EXPECT_EQ(c.verdict, Verdict::kUnsure);
  EXPECT_NE(c.reason.find("straddles"), std::string::npos) << c.reason;
  EXPECT_LT(c.ci_low, 1 / 1.02);
  EXPECT_GT(c.ci_high, 1 / 1.02);
}

TEST(Verdict, SmallRealChangeBelowMinimumEffectIsSame) {
  // 1% slower, measured precisely: real, but below the 2% that counts.
  auto a = synthetic_samples(1.00, 0.002, 400, 12);
  auto b = synthetic_samples(1.01, 0.002, 400, 13);
  EXPECT_EQ(compare_samples(a, b, {}, 7).verdict, Verdict::kSame);
  VerdictOptions strict;
  strict.min_effect = 0.005;
  EXPECT_EQ(compare_samples(a, b, strict, 7).verdict, Verdict::kSlow);
}

TEST(Verdict, TooFewSamplesAreUnsure) {
  auto c = compare_samples({1.0, 1.0, 1.0}, {0.5, 0.5, 0.5}, {}, 7);
  EXPECT_EQ(c.verdict, Verdict::kUnsure);
  EXPECT_DOUBLE_EQ(c.speedup, 2.0);
  EXPECT_NE(c.reason.find("too few samples"), std::string::npos);
}

TEST(Verdict, SameSeedGivesTheSameInterval) {
  auto a = synthetic_samples(1.00, 0.05, 50, 14);
  auto b = synthetic_samples(0.99, 0.05, 50, 15);
  auto x = compare_samples(a, b, {}, seed_for("mm|float16"));
  auto y = compare_samples(a, b, {}, seed_for("mm|float16"));
  EXPECT_DOUBLE_EQ(x.ci_low, y.ci_low);
  EXPECT_DOUBLE_EQ(x.ci_high, y.ci_high);
  EXPECT_NE(seed_for("mm|float16"), seed_for("mm|float32"));
}

}  // namespace
}  // namespace caliber
