#include "timing/repeat_rule.h"

#include <gtest/gtest.h>

#include "timing/markers.h"

namespace caliber {
namespace {

TEST(RepeatRule, KeepsRequestedRepeatForMedian) {
  MeasureOptions options;
  options.repeat = 3;
  std::vector<std::string> markers;
  EXPECT_EQ(repeats_to_take(options, markers), 3);
  EXPECT_TRUE(markers.empty());
}

TEST(RepeatRule, SkipsRepeatForReturnModeAllAndSaysSo) {
  MeasureOptions options;
  options.repeat = 3;
  options.return_mode = ReturnMode::kAll;
  std::vector<std::string> markers;
  EXPECT_EQ(repeats_to_take(options, markers), 1);
  EXPECT_EQ(markers, (std::vector<std::string>{"repeat_skipped[repeat=3,reason=return_mode=all]"}));
}

TEST(RepeatRule, SkipsRepeatForQuantilesAndSaysSo) {
  MeasureOptions options;
  options.repeat = 5;
  options.quantiles = {0.5, 0.9};
  std::vector<std::string> markers;
  EXPECT_EQ(repeats_to_take(options, markers), 1);
  EXPECT_EQ(markers, (std::vector<std::string>{"repeat_skipped[repeat=5,reason=quantiles]"}));
}

TEST(RepeatRule, SingleRepeatNeedsNoMarker) {
  MeasureOptions options;
  options.return_mode = ReturnMode::kAll;
  std::vector<std::string> markers;
  EXPECT_EQ(repeats_to_take(options, markers), 1);
  EXPECT_TRUE(markers.empty());
}

TEST(Markers, TextIsStable) {
  EXPECT_EQ(fallback_marker("capture", 2), "fallback[phase=capture,repeat=2]");
  EXPECT_EQ(throttled_marker(4), "throttled=4");
  EXPECT_EQ(capture_poisoned_text("mm"), "BENCHMARK_CAPTURE_POISONED mm");
}

}  // namespace
}  // namespace caliber
