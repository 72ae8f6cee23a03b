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
