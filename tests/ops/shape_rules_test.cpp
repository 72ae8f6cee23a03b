#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/op_shapes.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ShapeSet shapes_of(const std::string& op, Level level, const std::string& backend = "") {
  return resolve_op_shapes(find_op(op), ShapeSources{.level = level, .backend = backend});
}

bool runs_at(const ShapeSet& set, const Shape& shape) {
  return std::any_of(set.cases.begin(), set.cases.end(),
                     [&](const ShapeCase& c) { return c.shape == shape; });
}

// The H200 core screen of 2026-11-29: eye asked for a 2^30 x 2^30 matrix. FlagGems' test_eye.py
// skips shape[0] >= 819200.
TEST(ShapeRules, EyeSkipsTheRowCountsFlagGemsSkips) {
  ShapeSet core = shapes_of("eye", Level::kCore);
  EXPECT_FALSE(runs_at(core, Shape{1073741824}));
  ASSERT_EQ(core.skipped.size(), 1u);
  EXPECT_THAT(core.skipped[0], StartsWith("[1073741824]: "));
  EXPECT_THAT(core.skipped[0], HasSubstr("819200"));
  EXPECT_TRUE(runs_at(core, Shape{4096, 4096}));
  EXPECT_TRUE(runs_at(core, Shape{1024, 1024, 1024}));  // eye(1024, 1024): small

  ShapeSet comprehensive = shapes_of("eye", Level::kComprehensive);
  EXPECT_FALSE(runs_at(comprehensive, Shape{int64_t{1} << 28}));
  EXPECT_TRUE(runs_at(comprehensive, Shape{10000, 65536}));
}

// The same screen: one_hot's int64 output at [1073741824] and [1024, 1024, 1024] was 128 GiB.
// FlagGems' test_one_hot.py skips numel * num_classes > 1e8.
TEST(ShapeRules, OneHotSkipsTheOutputsFlagGemsSkips) {
  ShapeSet core = shapes_of("one_hot", Level::kCore);
  EXPECT_EQ(core.shapes, (std::vector<Shape>{{64, 64}}));
  EXPECT_EQ(core.cases.size(), 1u);
  ASSERT_EQ(core.skipped.size(), 4u);
  EXPECT_THAT(core.skipped[0], StartsWith("[1073741824]: one_hot output of 17179869184 elements"));
  EXPECT_THAT(core.skipped[1], StartsWith("[4096, 4096]: "));  // 16 x 16.8M = 268M

  ShapeSet comprehensive = shapes_of("one_hot", Level::kComprehensive);
  EXPECT_TRUE(runs_at(comprehensive, Shape{10000, 256}));  // 41M outputs
  EXPECT_FALSE(runs_at(comprehensive, Shape{10000, 65536}));
}

TEST(ShapeRules, HostShapesLeaveEyeAndOneHotEveryCase) {
  for (const char* op : {"eye", "one_hot"}) {
    ShapeSet cpu = shapes_of(op, Level::kCore, "cpu");
    EXPECT_FALSE(cpu.cases.empty()) << op;
    EXPECT_TRUE(cpu.skipped.empty()) << op;
  }
}

}  // namespace
}  // namespace caliber
