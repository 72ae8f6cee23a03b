#include "engine/op_shapes.h"

#include <gtest/gtest.h>

#include <set>

#include "ops/op_registry.h"

namespace caliber {
namespace {

ShapeSources at_level(Level level) {
  ShapeSources s;
  s.level = level;
  return s;
}

TEST(OpShapes, MmRunsFiveCasesPerDtypeAtCore) {
  ShapeSet set = resolve_op_shapes(find_op("mm"), at_level(Level::kCore));
  EXPECT_EQ(set.key, "BlasBenchmark");
  EXPECT_EQ(set.shape_desc, "B, M, N, K");
  EXPECT_EQ(set.cases.size(), 5u);
}

TEST(OpShapes, MmRuns121UniqueShapesAnd242CasesAtComprehensive) {
  ShapeSet set = resolve_op_shapes(find_op("mm"), at_level(Level::kComprehensive));
  std::set<std::string> unique;
  for (const auto& s : set.shapes) unique.insert(s.to_string());
  EXPECT_EQ(set.shapes.size(), 121u);
  EXPECT_EQ(unique.size(), 121u);
  ASSERT_EQ(set.cases.size(), 242u);
  // core list first, then large K, then the model shapes; then all again with B column-major.
  EXPECT_EQ(set.shapes[0], (Shape{2, 384, 384, 384}));
  EXPECT_EQ(set.shapes[5], (Shape{8, 1848, 1536, 151936}));
  EXPECT_EQ(set.shapes[8], (Shape{8, 4096, 1, 152064}));
  EXPECT_EQ(set.shapes[9], (Shape{4, 1, 1024, 4096}));
  EXPECT_EQ(set.shapes.back(), (Shape{4, 8192, 4608, 3584}));
  EXPECT_FALSE(set.cases[120].column_major);
  EXPECT_TRUE(set.cases[121].column_major);
  EXPECT_EQ(set.cases[121].shape, set.shapes[0]);
}

TEST(OpShapes, CpuOverrideKeepsHostRunsSmall) {
  ShapeSources s = at_level(Level::kCore);
  s.backend = "cpu";
  for (const auto& op : all_ops()) {
    ShapeSet set = resolve_op_shapes(op, s);
    EXPECT_NE(set.source.find("cpu.yaml"), std::string::npos) << op.name();
  }
}

TEST(OpShapes, FlagGemsModelFileDrivesMm) {
  ShapeSources s = at_level(Level::kCore);
  s.shape_file = std::string(CALIBER_SHARED_DIR) + "/reference/flaggems/qwen25.yaml";
  ShapeSet mm = resolve_op_shapes(find_op("mm"), s);
  EXPECT_EQ(mm.key, "mm");
  EXPECT_EQ(mm.cases.size(), 20u);
  ShapeSet add = resolve_op_shapes(find_op("add"), s);  // not in the model file
  EXPECT_NE(add.source.find("core.yaml"), std::string::npos);
}

TEST(OpShapes, FlagGemsCoreFileGivesEveryOpAShape) {
  ShapeSources s = at_level(Level::kComprehensive);
  s.shape_file = std::string(CALIBER_SHARED_DIR) + "/reference/flaggems/core_shapes.yaml";
  for (const auto& op : all_ops())
    EXPECT_FALSE(resolve_op_shapes(op, s).cases.empty()) << op.name();
  EXPECT_EQ(resolve_op_shapes(find_op("mm"), s).cases.size(), 242u);
}

TEST(OpShapes, ASkipRuleTakesItsShapesOutOfShapesAndCasesAndSaysWhy) {
  OpDef op = OpDef("wide")
                 .builtin_shapes({{4, 8}, {4, 4096}, {2, 16}})
                 .column_major_pass()
                 .skip_shapes([](const Shape& s) {
                   return s.dims("wide")[1] > 1024 ? std::string("too wide") : std::string();
                 });
  ShapeSources s = at_level(Level::kComprehensive);
  s.mode = ShapeMode::kBuiltin;
  ShapeSet set = resolve_op_shapes(op, s);
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{4, 8}, {2, 16}}));
  ASSERT_EQ(set.cases.size(), 4u);  // the kept shapes, then again with B column-major
  for (const ShapeCase& c : set.cases) EXPECT_NE(c.shape, (Shape{4, 4096})) << c.label();
  EXPECT_TRUE(set.cases[2].column_major);
  EXPECT_EQ(set.skipped, (std::vector<std::string>{"[4, 4096]: too wide"}));
  EXPECT_NE(set.to_yaml().find("[4, 4096]: too wide"), std::string::npos) << set.to_yaml();
}

TEST(OpShapes, AnOpWithoutASkipRuleSkipsNothing) {
  ShapeSet set = resolve_op_shapes(find_op("add"), at_level(Level::kComprehensive));
  EXPECT_TRUE(set.skipped.empty());
  EXPECT_EQ(set.to_yaml().find("skipped"), std::string::npos);
}

}  // namespace
}  // namespace caliber
