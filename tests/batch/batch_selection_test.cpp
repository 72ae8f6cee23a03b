// Which ops a batch runs, on which lane, and what each child is told.
#include <gtest/gtest.h>

#include "batch/work_queue.h"
#include "batch_harness.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

using testing::BatchHarness;

TEST(BatchSelection, RunsEveryListedOpWhenNoneAreNamed) {
  BatchHarness h("all");
  h.set_env("CALIBER_SELFTEST", "0");
  h.set_env("FAKE_SLOW_S", "0");
  EXPECT_EQ(h.run({"--devices", "0,1,2"}), 0) << h.output();
  EXPECT_EQ(h.status().size(), 10u);  // the fake's non-selftest ops
}

TEST(BatchSelection, DismissedOpsAreReportedWithTheirReasonAndNotRun) {
  BatchHarness h("dismiss");
  write_file_atomic(
      h.dir() / "dismiss.yaml",
      "- op: selftest_fail\n  reason: known bad kernel\n  verified_on: H200 2025-01\n");
  EXPECT_EQ(
      h.run({"--ops", "ok_a,selftest_fail", "--dismiss-file", (h.dir() / "dismiss.yaml").string()}),
      0)
      << h.output();
  OpStatus s = h.status()["selftest_fail"];
  EXPECT_EQ(s.state, OpState::kDismissed);
  EXPECT_NE(s.error.find("known bad kernel"), std::string::npos);
  EXPECT_TRUE(h.calls("run op=selftest_fail ").empty());
}

TEST(BatchSelection, FamilyKeepsOnlyThatFamily) {
  BatchHarness h("family");
  EXPECT_EQ(h.run({"--family", "reduction"}), 0) << h.output();
  auto s = h.status();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.begin()->first, "ok_b");
}

TEST(BatchSelection, OpsFileNamesTheOps) {
  BatchHarness h("opsfile");
  write_file_atomic(h.dir() / "ops.txt", "# screen\nok_a\nok_b, ok_c  # two\n");
  EXPECT_EQ(h.run({"--ops-file", (h.dir() / "ops.txt").string()}), 0) << h.output();
  EXPECT_EQ(h.status().size(), 3u);
}

TEST(BatchSelection, UnknownOpIsABadInput) {
  BatchHarness h("unknown");
  EXPECT_EQ(h.run({"--ops", "no_such_op"}), 2);
  EXPECT_NE(h.output().find("no_such_op"), std::string::npos);
}

TEST(BatchSelection, BadKnobIsRefusedBeforeAnythingRuns) {
  BatchHarness h("badknob");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--level", "full"}), 2);
  EXPECT_NE(h.output().find("--level"), std::string::npos);
  EXPECT_TRUE(h.calls("").empty());
}

TEST(BatchSelection, NamedOpsRunWhenTheOpListingFails) {
  BatchHarness h("nolisting");
  h.set_env("FAKE_OPS_FAIL", "1");
  EXPECT_EQ(h.run({"--ops", "ok_a"}), 0) << h.output();
  EXPECT_EQ(h.run({"--force"}), 2);  // the whole corpus cannot be known
}

TEST(BatchSelection, EachChildGetsDeviceZeroAndItsLaneDevice) {
  BatchHarness h("lanes");
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b,ok_c", "--devices", "3,5"}), 0) << h.output();
  auto s = h.status();
  for (const auto& call : h.calls("run op=")) {
    EXPECT_EQ(BatchHarness::field(call, "device"), "0") << call;
    std::string op = BatchHarness::field(call, "op");
    EXPECT_EQ(BatchHarness::field(call, "lane"), std::to_string(s[op].device)) << call;
    EXPECT_TRUE(s[op].device == 3 || s[op].device == 5);
  }
}

TEST(BatchSelection, KnobsPassThroughUnchanged) {
  BatchHarness h("passthrough");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--timer", "host", "--repeat", "3"}), 0) << h.output();
  std::string identity = BatchHarness::read_or_empty(h.out() / "batch_identity.json");
  EXPECT_NE(identity.find("\"timer\": \"host\""), std::string::npos) << identity;
  EXPECT_NE(identity.find("\"repeat\": \"3\""), std::string::npos) << identity;
}

}  // namespace
}  // namespace caliber
