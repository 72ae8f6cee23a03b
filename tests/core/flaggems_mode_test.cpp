#include "core/flaggems_mode.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(FlagGemsMode, KernelModeIsDoBenchWithItsZeroingFlush) {
  FlagGemsModeKnobs knobs;
  ASSERT_TRUE(flaggems_mode_knobs("kernel", knobs));
  EXPECT_EQ(knobs.timer, "direct");
  EXPECT_EQ(knobs.cache, "cold");
  EXPECT_EQ(knobs.flush_mb, "256");
  // do_bench zeroes its buffer, so kernel mode keeps the write flush whatever the default.
  EXPECT_EQ(knobs.flush_method, "write");
}

TEST(FlagGemsMode, HotModesLeaveTheFlushAlone) {
  FlagGemsModeKnobs knobs;
  ASSERT_TRUE(flaggems_mode_knobs("cudagraph", knobs));
  EXPECT_EQ(knobs.timer, "graph");
  EXPECT_TRUE(knobs.flush_method.empty());
  EXPECT_FALSE(flaggems_mode_knobs("wrapper", knobs));
}

}  // namespace
}  // namespace caliber
