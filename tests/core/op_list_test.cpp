#include "core/op_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/data_paths.h"
#include "core/error.h"

namespace caliber {
namespace {

TEST(OpList, RejectsAnEntryWithoutReasonNamingFileAndEntry) {
  try {
    OpList::parse("- op: sort\n  reason: slow\n  verified_on: H200/2026-11-29\n- op: topk\n",
                  "dismiss.yaml");
    FAIL() << "accepted an entry without reason";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("dismiss.yaml:4:"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'topk' has no reason"));
  }
}

TEST(OpList, AcceptsAListUnderADismissKey) {
  OpList list = OpList::parse("dismiss:\n  - {op: mm, reason: r, verified_on: H200}\n", "d.yaml");
  ASSERT_EQ(list.entries().size(), 1u);
  EXPECT_EQ(list.entries()[0].verified_on, "H200");
}

TEST(OpList, DismissesAnOpOnlyByAnEntryForEveryDtypeOfItsBackend) {
  OpList list = OpList::parse(
      "- {op: mm, reason: r, verified_on: x, backend: cpu, dtypes: [float16]}\n"
      "- {op: sort, reason: r, verified_on: x, backend: cuda}\n"
      "- {op: topk, reason: r, verified_on: x, backend: cpu}\n",
      "d.yaml");
  EXPECT_EQ(list.dismissal("mm", "cpu"), nullptr);
  EXPECT_EQ(list.dismissal("sort", "cpu"), nullptr);
  ASSERT_NE(list.dismissal("sort", "CUDA"), nullptr);
  ASSERT_NE(list.dismissal("topk", "cpu"), nullptr);
}

TEST(OpList, FindsEntriesNarrowedByBackendAndDtype) {
  OpList list = OpList::parse(
      "- {op: a, reason: r1, verified_on: x}\n"
      "- {op: b, reason: r2, verified_on: x, backend: CPU}\n"
      "- {op: c, reason: r3, verified_on: x, dtypes: [float16]}\n",
      "l.yaml");
  EXPECT_NE(list.find("a", "cuda"), nullptr);
  EXPECT_NE(list.find("b", "cpu"), nullptr);
  EXPECT_EQ(list.find("b", "cuda"), nullptr);
  EXPECT_NE(list.find("c", "cuda", "float16"), nullptr);
  EXPECT_EQ(list.find("c", "cuda", "float32"), nullptr);
  EXPECT_EQ(list.find("d", "cuda"), nullptr);
}

TEST(OpList, RepositoryListsLoad) {
  EXPECT_NO_THROW(OpList::load(default_dismiss_list()));
  EXPECT_NO_THROW(OpList::load(default_capture_deny_list()));
}

}  // namespace
}  // namespace caliber
