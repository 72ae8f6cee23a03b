#include "batch/op_selection.h"

#include <gtest/gtest.h>

#include "batch_harness.h"
#include "core/atomic_file.h"
#include "core/error.h"

namespace caliber {
namespace {

const std::vector<OpEntry> kCatalog = {
    {"mm", "BLAS", 5, {"float16"}}, {"softmax", "softmax", 3, {}}, {"sum", "reduction", 4, {}}};

TEST(OpCatalog, ReadsAListOrAnObjectWithOps) {
  auto ops = parse_op_catalog(
      R"([{"name":"mm","family":"BLAS","shape_count":5,"dtypes":["float16","float32"]}])");
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].family, "BLAS");
  EXPECT_EQ(ops[0].shape_count, 5);
  EXPECT_EQ(ops[0].dtypes.size(), 2u);
  auto wrapped = parse_op_catalog(R"({"ops":[{"op":"sum","shapes":[[1],[2],[3]]}]})");
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_EQ(wrapped[0].name, "sum");
  EXPECT_EQ(wrapped[0].shape_count, 3);
}

TEST(OpCatalog, RejectsTextThatIsNotJson) { EXPECT_THROW(parse_op_catalog("mm softmax"), Error); }

TEST(OpSelection, FamilyIsComparedCaseInsensitively) {
  auto s = select_ops(kCatalog, {{}, {"blas"}}, {}, "cuda");
  ASSERT_EQ(s.ops.size(), 1u);
  EXPECT_EQ(s.ops[0].name, "mm");
}

TEST(OpSelection, DismissedOpsAreSetAsideWithTheirEntry) {
  OpList dismiss = OpList::parse(
      "- {op: softmax, reason: hangs on capture, verified_on: H200}\n"
      "- {op: sum, reason: r, verified_on: H200, backend: cuda, dtypes: [float16]}\n"
      "- {op: mm, reason: r, verified_on: H200, backend: rocm}\n",
      "dismiss.yaml");
  auto s = select_ops(kCatalog, {}, dismiss, "cuda");
  EXPECT_EQ(s.ops.size(), 2u);  // sum is dismissed for float16 only, mm on another backend
  ASSERT_EQ(s.dismissed.size(), 1u);
  EXPECT_EQ(s.dismissed[0].second.reason, "hangs on capture");
}

TEST(OpSelection, NamedOpMissingFromTheCatalogIsAUsageError) {
  try {
    select_ops(kCatalog, {{"nope"}, {}}, {}, "cuda");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos);
  }
}

TEST(OpSelection, NamedOpsRunAsGivenWithoutACatalog) {
  auto s = select_ops({}, {{"b", "a", "b"}, {}}, {}, "cuda");
  ASSERT_EQ(s.ops.size(), 2u);
  EXPECT_EQ(s.ops[0].name, "b");
}

}  // namespace
}  // namespace caliber
