// `caliber batch` against the fake child: each outcome classified, retries, the deterministic
// cutoff, the dtype fallback, and no process left behind.
#include <gtest/gtest.h>

#include "batch_harness.h"

namespace caliber {
namespace {

using testing::BatchHarness;

const std::vector<std::string> kFastFailure = {"--timeout-s", "1", "--retries", "2"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(BatchIsolation, TellsCrashHangDeviceFatalAndFailureApart) {
  BatchHarness h("outcomes");
  int code = h.run(with(kFastFailure, {"--ops",
                                       "ok_a,selftest_segfault,selftest_hang,selftest_fail,"
                                       "selftest_device_fatal",
                                       "--devices", "0,1", "--dtypes", "float32"}));
  EXPECT_EQ(code, 1) << h.output();
  auto s = h.status();
  EXPECT_EQ(s["ok_a"].state, OpState::kOk);
  EXPECT_EQ(s["ok_a"].timer_used, "host");
  EXPECT_EQ(s["selftest_segfault"].state, OpState::kCrashed);
  EXPECT_EQ(s["selftest_segfault"].signal, "SIGSEGV");
  EXPECT_EQ(s["selftest_hang"].state, OpState::kHung);
  EXPECT_NE(s["selftest_hang"].error.find("timed out"), std::string::npos);
  EXPECT_EQ(s["selftest_fail"].state, OpState::kFailed);
  EXPECT_EQ(s["selftest_fail"].exit_code, 1);
  EXPECT_NE(s["selftest_fail"].error.find("fails on purpose"), std::string::npos);
  EXPECT_EQ(s["selftest_device_fatal"].state, OpState::kDeviceFatal);
  EXPECT_EQ(s["selftest_device_fatal"].exit_code, 3);
  EXPECT_NE(s["selftest_device_fatal"].error.find("illegal memory access"), std::string::npos);
}

TEST(BatchIsolation, RetriesAFlakyOpUntilItPasses) {
  BatchHarness h("flaky");
  EXPECT_EQ(h.run(with(kFastFailure, {"--ops", "selftest_flaky"})), 0) << h.output();
  EXPECT_EQ(h.status()["selftest_flaky"].state, OpState::kOk);
  EXPECT_EQ(h.status()["selftest_flaky"].attempts, 2);
}

TEST(BatchIsolation, StopsRetryingWhenTheSameFailureRepeats) {
  BatchHarness h("cutoff");
  h.run({"--ops", "selftest_fail", "--retries", "5", "--dtypes", "float32"});
  EXPECT_EQ(h.status()["selftest_fail"].attempts, 2);
  EXPECT_EQ(h.calls("run op=selftest_fail ").size(), 2u);
}

TEST(BatchIsolation, DoesNotRetryWhenRetriesAreZero) {
  BatchHarness h("noretry");
  h.run({"--ops", "selftest_flaky", "--retries", "0", "--dtypes", "float32"});
  EXPECT_EQ(h.status()["selftest_flaky"].state, OpState::kFailed);
  EXPECT_EQ(h.status()["selftest_flaky"].attempts, 1);
}

TEST(BatchIsolation, DtypeFallbackRecordsWhichDtypesPassedAndFailed) {
  BatchHarness h("dtypes");
  EXPECT_EQ(h.run({"--ops", "selftest_dtype_fail", "--dtypes", "float16,float32,bfloat16"}), 1);
  OpStatus s = h.status()["selftest_dtype_fail"];
  EXPECT_EQ(s.state, OpState::kPartial);
  EXPECT_EQ(s.dtypes_passed, (std::vector<std::string>{"float32", "bfloat16"}));
  EXPECT_EQ(s.dtypes_failed, (std::vector<std::string>{"float16"}));
  EXPECT_TRUE(
      std::filesystem::exists(h.out() / "ops/selftest_dtype_fail/dtypes/float32/results.jsonl"));
}

TEST(BatchIsolation, DtypeFallbackUsesTheOpsOwnDtypesWhenNoneAreGiven) {
  BatchHarness h("owndtypes");
  h.run({"--ops", "selftest_dtype_fail"});
  OpStatus s = h.status()["selftest_dtype_fail"];
  EXPECT_EQ(s.dtypes_failed, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(s.dtypes_passed.size(), 2u);
}

// A run in a fresh process that ends with only its candidate's rows failed (FlagGems refusing a
// dtype) says per dtype what another retry and a run of each dtype alone would only repeat: the
// H100 screen spent 65 s of apply_rotary_pos_emb's 69 s, and amin's 94 s, on those. The worker's
// first attempt still gets its retry in a fresh process.
TEST(BatchIsolation, ACandidateOnlyFailureIsNeitherRetriedNorSplitByDtype) {
  BatchHarness h("candidatefail");
  h.set_env("FAKE_CANDIDATE_FAILS", "float16");
  EXPECT_EQ(
      h.run({"--ops", "ok_a", "--dtypes", "float16,float32,bfloat16", "--isolation", "worker"}), 1)
      << h.output();
  OpStatus s = h.status()["ok_a"];
  EXPECT_EQ(s.state, OpState::kPartial);
  EXPECT_EQ(s.attempts, 2);
  EXPECT_EQ(s.dtypes_passed, (std::vector<std::string>{"float32", "bfloat16"}));
  EXPECT_EQ(s.dtypes_failed, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(h.calls("worker-run op=ok_a ").size(), 1u);
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 1u);  // the retry in a fresh process
  EXPECT_FALSE(std::filesystem::exists(h.out() / "ops/ok_a/dtypes"));
  const std::string log = BatchHarness::read_or_empty(h.out() / "batch.log");
  EXPECT_NE(log.find("only the candidate's rows failed (float16)"), std::string::npos) << log;
}

// In its own process (--isolation op) the first attempt is the only one.
TEST(BatchIsolation, ACandidateFailingEveryDtypeFailsTheOpInOneAttempt) {
  BatchHarness h("candidatefailall");
  h.set_env("FAKE_CANDIDATE_FAILS", "float16,float32,bfloat16");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--isolation", "op"}), 1) << h.output();
  OpStatus s = h.status()["ok_a"];
  EXPECT_EQ(s.state, OpState::kFailed);
  EXPECT_EQ(s.attempts, 1);
  EXPECT_TRUE(s.dtypes_passed.empty());
  EXPECT_EQ(s.dtypes_failed.size(), 3u);
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 1u);
}

TEST(BatchIsolation, KillsTheOrphanAnOpLeavesBehind) {
  BatchHarness h("orphan");
  EXPECT_EQ(h.run({"--ops", "selftest_orphan"}), 0) << h.output();
  pid_t orphan = std::stoi(BatchHarness::read_or_empty(h.state_dir() / "orphan.pid"));
  EXPECT_TRUE(testing::wait_for([&] { return !testing::process_alive(orphan); }, 2));
}

TEST(BatchIsolation, KillsTheWholeProcessGroupOfAHungOp) {
  BatchHarness h("hang");
  h.run({"--ops", "selftest_hang", "--timeout-s", "0.5", "--retries", "0", "--dtypes", "float32"});
  auto runs = h.calls("run op=selftest_hang ");
  ASSERT_EQ(runs.size(), 1u);
  pid_t group = std::stoi(BatchHarness::field(runs[0], "pid"));  // setsid: pid == pgid
  EXPECT_FALSE(testing::group_alive(group));
}

// A slow first call (FlagGems compiling each dtype's kernels) outlasts the timeout while its rows
// keep coming: the rows stretch the deadline, so the op ends ok in one attempt.
TEST(BatchIsolation, RowsThatKeepComingStretchTheTimeout) {
  BatchHarness h("stretch");
  h.set_env("FAKE_ROWS", "5");
  h.set_env("FAKE_ROW_EVERY_S", "0.4");  // 2 s of rows against a 1.5 s timeout, capped at 4.5 s
  EXPECT_EQ(h.run({"--ops", "rows_a", "--timeout-s", "1.5", "--retries", "0"}), 0) << h.output();
  EXPECT_EQ(h.status()["rows_a"].state, OpState::kOk);
  EXPECT_EQ(h.status()["rows_a"].attempts, 1);
}

TEST(BatchIsolation, AStretchOfOneKeepsTheFixedDeadline) {
  BatchHarness h("nostretch");
  h.set_env("FAKE_ROWS", "5");
  h.set_env("FAKE_ROW_EVERY_S", "0.4");
  h.run({"--ops", "rows_a", "--timeout-s", "1.5", "--timeout-stretch", "1", "--retries", "0"});
  OpStatus s = h.status()["rows_a"];
  EXPECT_EQ(s.state, OpState::kHung);
  EXPECT_NE(s.error.find("timed out after 2 s;"), std::string::npos) << s.error;  // 1.5, rounded
  EXPECT_LT(s.wall_s, 1.9);
}

// A hang after some rows still ends a timeout after the last row, and says so.
TEST(BatchIsolation, AHangAfterItsRowsEndsATimeoutAfterTheLastRow) {
  BatchHarness h("rowshang");
  h.set_env("FAKE_ROWS", "2");
  h.set_env("FAKE_ROW_EVERY_S", "0.6");  // rows at 0.6 and 1.2 s, then a hang
  h.set_env("FAKE_HANG_AFTER_ROWS", "1");
  h.run({"--ops", "rows_a", "--timeout-s", "1.5", "--retries", "0"});
  OpStatus s = h.status()["rows_a"];
  EXPECT_EQ(s.state, OpState::kHung);
  EXPECT_NE(s.error.find("no case measured in its last 2 s"), std::string::npos) << s.error;
  EXPECT_GT(s.wall_s, 2.4);  // not at the 1.5 s timeout: the second row came at 1.2 s
  EXPECT_LT(s.wall_s, 4.4);  // nor at the 4.5 s cap
}

}  // namespace
}  // namespace caliber
