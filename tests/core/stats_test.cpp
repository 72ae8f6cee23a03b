#include "core/stats.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(Stats, MedianOfOddAndEvenSamples) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(Stats, QuantileInterpolatesLinearly) {
  EXPECT_DOUBLE_EQ(quantile({0, 10}, 0.2), 2);
  EXPECT_DOUBLE_EQ(quantile({5, 1, 3}, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile({5, 1, 3}, 1.0), 5);
}

TEST(Stats, RobustSpreadIgnoresOneOutlier) {
  std::vector<double> values = {1.0, 1.0, 1.01, 0.99, 1.0, 100.0};
  EXPECT_LT(mad_sigma(values), 0.05);
  EXPECT_GT(stddev(values), 10);
}

TEST(Stats, NoiseOfMedianShrinksWithMoreSamples) {
  std::vector<double> few = {1.0, 1.1, 0.9, 1.05, 0.95};
  std::vector<double> many;
  for (int i = 0; i < 20; ++i) many.insert(many.end(), few.begin(), few.end());
  EXPECT_LT(relative_noise_of_median(many), relative_noise_of_median(few) / 3);
}

}  // namespace
}  // namespace caliber

#include "core/error.h"

namespace caliber {
namespace {

TEST(ErrorSummary, KeepsFirstLineAndTheCudaErrorName) {
  std::string text =
      "CUDA error: operation not permitted when stream is capturing\n"
      "Search for `cudaErrorStreamCaptureUnsupported' in https://docs.nvidia.com/x for more.\n"
      "frame #0: c10::Error::Error(...)\n";
  EXPECT_EQ(error_summary(text),
            "CUDA error: operation not permitted when stream is capturing "
            "(cudaErrorStreamCaptureUnsupported)");
  EXPECT_EQ(error_summary("plain"), "plain");
}

}  // namespace
}  // namespace caliber
