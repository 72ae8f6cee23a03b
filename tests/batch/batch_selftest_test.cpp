// The real thing: `caliber batch` driving real `caliber run` children through the selftest fault
// ops (CALIBER_SELFTEST=1). Skipped while the binary has no selftest ops to list (before the run
// and corpus work is merged); from then on these must pass as the fake-child suites do.
#include <gtest/gtest.h>

#include "batch_harness.h"
#include "core/result_row.h"

namespace caliber {
namespace {

using testing::BatchHarness;

bool binary_has_selftest_ops(const BatchHarness& h) {
  pid_t pid = h.spawn({CALIBER_BINARY, "ops", "--json", "--backend", "cpu"});
  return BatchHarness::wait(pid) == 0 && h.output().find("selftest_segfault") != std::string::npos;
}

class RealBinaryBatch : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!binary_has_selftest_ops(h_)) GTEST_SKIP() << "caliber ops lists no selftest ops yet";
  }
  BatchHarness h_{"real", /*fake_child=*/false};
};

TEST_F(RealBinaryBatch, ClassifiesEveryFaultOp) {
  h_.run({"--ops",
          "selftest_segfault,selftest_hang,selftest_fail,selftest_device_fatal,selftest_flaky,"
          "selftest_dtype_fail,selftest_orphan",
          "--devices", "0,1", "--timeout-s", "20", "--retries", "2"});
  auto s = h_.status();
  EXPECT_EQ(s["selftest_segfault"].state, OpState::kCrashed) << h_.output();
  EXPECT_EQ(s["selftest_hang"].state, OpState::kHung);
  EXPECT_EQ(s["selftest_fail"].state, OpState::kFailed);
  EXPECT_EQ(s["selftest_fail"].attempts, 2);
  EXPECT_EQ(s["selftest_device_fatal"].state, OpState::kDeviceFatal);
  EXPECT_EQ(s["selftest_flaky"].state, OpState::kOk);
  EXPECT_EQ(s["selftest_flaky"].attempts, 2);
  EXPECT_EQ(s["selftest_dtype_fail"].state, OpState::kPartial);
  EXPECT_EQ(s["selftest_dtype_fail"].dtypes_failed, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(s["selftest_orphan"].state, OpState::kOk);
}

// The retry's rows replace the failed attempt's (on an H100 a retried op once held both
// attempts' rows, 52 candidate rows for 26 cases); the failed attempt's log stays.
TEST_F(RealBinaryBatch, ARetriedOpKeepsOnlyTheRowsOfItsLastAttempt) {
  h_.run({"--ops", "selftest_flaky", "--dtypes", "float32", "--timeout-s", "20", "--retries", "2"});
  ASSERT_EQ(h_.status()["selftest_flaky"].attempts, 2) << h_.output();
  const std::filesystem::path op = h_.out() / "ops" / "selftest_flaky";
  std::vector<ResultRow> rows = read_results_jsonl((op / "results.jsonl").string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, RowStatus::kSuccess);
  EXPECT_TRUE(std::filesystem::exists(op / "attempt-1.log"));
}

TEST_F(RealBinaryBatch, WorkerModeClassifiesEveryFaultOp) {
  h_.run({"--isolation", "worker", "--ops", "selftest_segfault,selftest_fail,selftest_flaky",
          "--devices", "0", "--timeout-s", "20"});
  auto s = h_.status();
  EXPECT_EQ(s["selftest_segfault"].state, OpState::kCrashed) << h_.output();
  EXPECT_EQ(s["selftest_fail"].state, OpState::kFailed);
  EXPECT_EQ(s["selftest_flaky"].state, OpState::kOk);
}

}  // namespace
}  // namespace caliber
