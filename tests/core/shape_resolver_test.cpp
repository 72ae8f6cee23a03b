#include "core/shape_resolver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/shape_set.h"

namespace caliber {
namespace {

class ShapeResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("caliber_shapes_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    write("core.yaml",
          "Benchmark:\n  shapes: [[10], [20]]\n"
          "UnaryPointwiseBenchmark:\n  shapes: [[30], [40]]\n  shape_desc: \"M\"\n"
          "abs:\n  shapes: [[50]]\n");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  ShapeSources sources(Level level = Level::kCore) {
    ShapeSources s;
    s.level = level;
    s.dir = dir_;
    return s;
  }
  static ShapeQuery query(const std::string& op) {
    ShapeQuery q;
    q.op = op;
    q.class_keys = {"UnaryPointwiseBenchmark"};
    q.builtin = {{7}};
    return q;
  }
  std::filesystem::path dir_;
};

TEST_F(ShapeResolverTest, OpKeyWinsOverClassKey) {
  ShapeSet set = resolve_shapes(query("abs"), sources());
  EXPECT_EQ(set.key, "abs");
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{50}}));
}

TEST_F(ShapeResolverTest, ClassKeyAnswersWhenTheOpHasNone) {
  ShapeSet set = resolve_shapes(query("neg"), sources());
  EXPECT_EQ(set.key, "UnaryPointwiseBenchmark");
  EXPECT_EQ(set.shape_desc, "M");
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{30}, {40}}));
}

TEST_F(ShapeResolverTest, DefaultBenchmarkListAnswersLast) {
  ShapeQuery q = query("sum");
  q.class_keys = {"UnaryReductionBenchmark"};
  ShapeSet set = resolve_shapes(q, sources());
  EXPECT_EQ(set.key, "Benchmark");
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{10}, {20}}));
}

TEST_F(ShapeResolverTest, BuiltinModeIgnoresFiles) {
  ShapeSources s = sources();
  s.mode = ShapeMode::kBuiltin;
  ShapeSet set = resolve_shapes(query("abs"), s);
  EXPECT_EQ(set.source, "builtin");
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{7}}));
}

TEST_F(ShapeResolverTest, ComprehensiveMergesExtraShapesInOrderWithoutDuplicates) {
  ShapeQuery q = query("neg");
  q.more_shapes = {{40}, {60}, {30}, {70}, {60}};
  EXPECT_EQ(resolve_shapes(q, sources(Level::kCore)).shapes, (std::vector<Shape>{{30}, {40}}));
  ShapeSet set = resolve_shapes(q, sources(Level::kComprehensive));
  EXPECT_EQ(set.shapes, (std::vector<Shape>{{30}, {40}, {60}, {70}}));
  EXPECT_EQ(set.cases.size(), 4u);
}

TEST_F(ShapeResolverTest, ColumnMajorPassRepeatsEveryShapeAtComprehensiveOnly) {
  ShapeQuery q = query("neg");
  q.column_major_pass = true;
  EXPECT_EQ(resolve_shapes(q, sources(Level::kCore)).cases.size(), 2u);
  ShapeSet set = resolve_shapes(q, sources(Level::kComprehensive));
  ASSERT_EQ(set.cases.size(), 4u);
  EXPECT_FALSE(set.cases[1].column_major);
  EXPECT_TRUE(set.cases[2].column_major);
  EXPECT_EQ(set.cases[2].shape, (Shape{30}));
}

TEST_F(ShapeResolverTest, BackendOverrideDecidesWhenItHasAnyKeyOfTheChain) {
  write("cpu.yaml", "Benchmark:\n  shapes: [[1]]\n");
  ShapeSources s = sources();
  s.backend = "cpu";
  // cpu.yaml's default beats core.yaml's op key: host runs stay small.
  EXPECT_EQ(resolve_shapes(query("abs"), s).shapes, (std::vector<Shape>{{1}}));
  s.backend = "cuda";  // no cuda.yaml: core.yaml answers
  EXPECT_EQ(resolve_shapes(query("abs"), s).shapes, (std::vector<Shape>{{50}}));
}

TEST_F(ShapeResolverTest, AFlagGemsBenchmarkFolderAnswersWithItsCoreShapes) {
  // SHAPE_MODE=upstream points `dir` at a FlagGems checkout's benchmark/ folder.
  std::filesystem::path bench = dir_ / "benchmark";
  std::filesystem::create_directories(bench);
  std::ofstream(bench / "core_shapes.yaml")
      << "abs:\n  shapes: [[60]]\nBenchmark:\n  shapes: [[70]]\n";
  ShapeSources s = sources();
  s.backend = "cpu";
  s.dir = bench;
  EXPECT_EQ(resolve_shapes(query("abs"), s).shapes, (std::vector<Shape>{{60}}));
  EXPECT_EQ(resolve_shapes(query("neg"), s).shapes, (std::vector<Shape>{{70}}));
  EXPECT_EQ(resolve_shapes(query("abs"), s).source, (bench / "core_shapes.yaml").string());
}

TEST_F(ShapeResolverTest, CustomFileFallsBackToCoreForOpsItDoesNotName) {
  write("model.yaml", "mm:\n  shapes: [[1, 2, 3, 4]]\n");
  ShapeSources s = sources();
  s.shape_file = (dir_ / "model.yaml").string();
  ShapeQuery mm = query("mm");
  EXPECT_EQ(resolve_shapes(mm, s).shapes, (std::vector<Shape>{{1, 2, 3, 4}}));
  EXPECT_EQ(resolve_shapes(query("abs"), s).source, (dir_ / "core.yaml").string());
}

TEST_F(ShapeResolverTest, DigestIsStableAndTracksTheCases) {
  ShapeSet a = resolve_shapes(query("neg"), sources());
  ShapeSet b = resolve_shapes(query("neg"), sources());
  b.source = "/elsewhere/core.yaml";  // the path is not part of the identity
  EXPECT_EQ(a.digest(), b.digest());
  EXPECT_EQ(a.digest().size(), 16u);
  ShapeSet c = resolve_shapes(query("abs"), sources());
  EXPECT_NE(a.digest(), c.digest());
}

TEST_F(ShapeResolverTest, SerialisedShapeSetReadsBackAsAShapeFile) {
  ShapeSet set = resolve_shapes(query("neg"), sources());
  write("run_shapes.yaml", shape_sets_to_yaml({set}));
  ShapeSources s = sources();
  s.shape_file = (dir_ / "run_shapes.yaml").string();
  ShapeSet again = resolve_shapes(query("neg"), s);
  EXPECT_EQ(again.key, "neg");
  EXPECT_EQ(again.shapes, set.shapes);
  EXPECT_EQ(again.digest(), set.digest());
}

}  // namespace
}  // namespace caliber
