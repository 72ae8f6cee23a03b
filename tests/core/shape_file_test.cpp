#include "core/shape_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

const std::string kReference = std::string(CALIBER_SHARED_DIR) + "/reference/flaggems/";

std::string usage_message(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(ShapeFile, AcceptsFlagGemsCoreShapesAsIs) {
  ShapeFile file = ShapeFile::load(kReference + "core_shapes.yaml");
  const ShapeEntry* blas = file.find("BlasBenchmark");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->shapes.size(), 5u);
  EXPECT_EQ(blas->shapes[0], (Shape{2, 384, 384, 384}));
  EXPECT_EQ(blas->shape_desc, "B, M, N, K");
  // `vdot: {<<: *single_dim_shapes}` takes the anchored list through the merge key.
  const ShapeEntry* vdot = file.find("vdot");
  ASSERT_NE(vdot, nullptr);
  EXPECT_EQ(vdot->shapes.size(), 5u);
  EXPECT_EQ(vdot->shape_desc, "M");
  // Nested tuples and Python-style booleans survive.
  const ShapeEntry* index_put = file.find("IndexPutAccFalseBenchmark");
  ASSERT_NE(index_put, nullptr);
  EXPECT_EQ(index_put->shapes[0].to_string(), "[[268435456], [[65536]], [65536], false]");
  EXPECT_FALSE(index_put->shapes[0].is_flat());
}

TEST(ShapeFile, AcceptsFlagGemsModelShapeFileAsIs) {
  ShapeFile file = ShapeFile::load(kReference + "qwen25.yaml");
  const ShapeEntry* mm = file.find("mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->shapes.size(), 20u);
  EXPECT_EQ(mm->shapes.front(), (Shape{1, 1, 152064, 3584}));
  EXPECT_EQ(file.find("fill_")->shapes.back(), (Shape{0, 3584}));
}

TEST(ShapeFile, LookupTakesTheFirstKeyOfTheChainPresent) {
  ShapeFile file = ShapeFile::parse(
      "Benchmark: {shapes: [[1]]}\nUnaryPointwiseBenchmark: {shapes: [[2]]}\nabs: {shapes: "
      "[[3]]}\n",
      "mem.yaml");
  EXPECT_EQ(file.lookup({"abs", "UnaryPointwiseBenchmark", "Benchmark"})->first, "abs");
  EXPECT_EQ(file.lookup({"neg", "UnaryPointwiseBenchmark", "Benchmark"})->first,
            "UnaryPointwiseBenchmark");
  EXPECT_EQ(file.lookup({"sum", "UnaryReductionBenchmark", "Benchmark"})->first, "Benchmark");
  EXPECT_FALSE(file.lookup({"nothing"}).has_value());
}

TEST(ShapeFile, RejectsMalformedYamlWithFileLineAndReason) {
  std::string msg = usage_message(
      [] { ShapeFile::parse("mm:\n  shapes:\n    - [1, 2\n  shape_desc: x\n", "bad.yaml"); });
  EXPECT_THAT(msg, ::testing::HasSubstr("bad.yaml:"));
  EXPECT_THAT(msg, ::testing::MatchesRegex("bad\\.yaml:[0-9]+: .+"));
}

TEST(ShapeFile, RejectsAKeyWithoutShapesNamingItsLine) {
  std::string msg = usage_message(
      [] { ShapeFile::parse("Benchmark:\n  shapes: [[1]]\nmm:\n  shape_desc: x\n", "f.yaml"); });
  EXPECT_THAT(msg, ::testing::HasSubstr("f.yaml:4:"));
  EXPECT_THAT(msg, ::testing::HasSubstr("'mm' has no 'shapes' list"));
}

TEST(ShapeFile, RejectsAShapeThatIsNotAList) {
  std::string msg =
      usage_message([] { ShapeFile::parse("mm:\n  shapes:\n    - {a: 1}\n", "g.yaml"); });
  EXPECT_THAT(msg, ::testing::HasSubstr("g.yaml:3:"));
  EXPECT_THAT(msg, ::testing::HasSubstr("a shape must be a list"));
}

TEST(ShapeFile, RejectsAnUnreadableFile) {
  std::string msg = usage_message([] { ShapeFile::load("/nonexistent/shapes.yaml"); });
  EXPECT_THAT(msg, ::testing::HasSubstr("/nonexistent/shapes.yaml"));
}

}  // namespace
}  // namespace caliber
