// A batch interrupted (SIGKILL, SIGINT) resumes without redoing completed ops or losing rows;
// a locked directory refuses a second batch.
#include <gtest/gtest.h>

#include "batch_harness.h"
#include "core/result_row.h"

namespace caliber {
namespace {

using testing::BatchHarness;

const std::vector<std::string> kSlowOps = {
    "--ops", "slow_1,slow_2,slow_3,slow_4,slow_5,slow_6", "--devices", "0", "--dtypes", "float32"};

void expect_every_slow_op_ok_with_one_row(const BatchHarness& h) {
  auto s = h.status();
  for (int i = 1; i <= 6; ++i) {
    std::string op = "slow_" + std::to_string(i);
    EXPECT_EQ(s[op].state, OpState::kOk) << op;
    auto rows = read_results_jsonl((h.out() / "ops" / op / "results.jsonl").string());
    EXPECT_EQ(rows.size(), 1u) << op;
  }
}

TEST(BatchResume, AfterSigkillRedoesNoCompletedOpAndLosesNoRow) {
  BatchHarness h("sigkill");
  h.set_env("FAKE_SLOW_S", "0.3");
  pid_t batch = h.start(kSlowOps);
  ASSERT_TRUE(testing::wait_for([&] { return h.complete_markers() >= 2; }, 20));
  ::kill(batch, SIGKILL);
  BatchHarness::wait(batch);
  std::vector<std::string> done_before;
  for (int i = 1; i <= 6; ++i) {
    std::string op = "slow_" + std::to_string(i);
    if (std::filesystem::exists(h.out() / "ops" / op / ".complete")) done_before.push_back(op);
  }
  ASSERT_GE(done_before.size(), 2u);

  EXPECT_EQ(h.run(kSlowOps), 0) << h.output();
  for (const auto& op : done_before) EXPECT_EQ(h.calls("run op=" + op + " ").size(), 1u) << op;
  expect_every_slow_op_ok_with_one_row(h);
}

TEST(BatchResume, SigintStopsChildrenWritesStatusAndResumesCleanly) {
  BatchHarness h("sigint");
  h.set_env("FAKE_SLOW_S", "0.5");
  pid_t batch = h.start(kSlowOps);
  ASSERT_TRUE(testing::wait_for([&] { return h.complete_markers() >= 1; }, 20));
  ASSERT_TRUE(testing::wait_for([&] { return h.calls("run op=").size() >= 2; }, 5));
  ::kill(batch, SIGINT);
  EXPECT_EQ(BatchHarness::wait(batch), 130) << h.output();

  for (const auto& call : h.calls("run op=")) {
    pid_t child = std::stoi(BatchHarness::field(call, "pid"));
    EXPECT_FALSE(testing::group_alive(child)) << call;
  }
  auto s = h.status();
  ASSERT_EQ(s.size(), 6u);
  int ok = 0;
  int interrupted = 0;
  for (const auto& [op, row] : s) {
    ok += row.state == OpState::kOk;
    interrupted += row.state == OpState::kInterrupted;
  }
  EXPECT_EQ(ok, h.complete_markers());
  EXPECT_EQ(ok + interrupted, 6);

  std::vector<std::string> done_before;
  for (const auto& [op, row] : s) {
    if (row.state == OpState::kOk) done_before.push_back(op);
  }
  EXPECT_EQ(h.run(kSlowOps), 0) << h.output();
  for (const auto& op : done_before) EXPECT_EQ(h.calls("run op=" + op + " ").size(), 1u) << op;
  expect_every_slow_op_ok_with_one_row(h);
}

TEST(BatchResume, SecondBatchOnALockedDirectoryIsRefused) {
  BatchHarness h("lock");
  h.set_env("FAKE_SLOW_S", "5");
  pid_t first = h.start({"--ops", "slow_1"});
  ASSERT_TRUE(testing::wait_for([&] { return h.calls("run op=slow_1 ").size() == 1; }, 10));
  EXPECT_EQ(h.run({"--ops", "slow_1"}), 2);
  EXPECT_NE(h.output().find("another batch"), std::string::npos) << h.output();
  ::kill(first, SIGINT);
  EXPECT_EQ(BatchHarness::wait(first), 130);
}

TEST(BatchResume, ForceRedoesCompletedOps) {
  BatchHarness h("force");
  EXPECT_EQ(h.run({"--ops", "ok_a"}), 0);
  EXPECT_EQ(h.run({"--ops", "ok_a"}), 0);
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 1u);
  EXPECT_EQ(h.run({"--ops", "ok_a", "--force"}), 0);
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 2u);
}

TEST(BatchResume, RedoFailedRerunsOnlyTheOpsThatDidNotPass) {
  BatchHarness h("redofailed");
  h.run({"--ops", "ok_a,selftest_flaky", "--retries", "0", "--dtypes", "float32"});
  EXPECT_EQ(h.status()["selftest_flaky"].state, OpState::kFailed);
  EXPECT_EQ(h.run({"--ops", "ok_a,selftest_flaky", "--retries", "0", "--dtypes", "float32",
                   "--redo-failed"}),
            0);
  EXPECT_EQ(h.status()["selftest_flaky"].state, OpState::kOk);
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 1u);
}

// What a batch cut in an op's dtype-by-dtype reruns leaves (its all-dtypes run's files, one
// dtype's finished run, another's attempt log; no marker) is cleared, and the op runs again: the
// state on which an H100 resume died of SIGSEGV in the thirty-first session.
TEST(BatchResume, AnOpCutInItsDtypeRerunsIsClearedAndRunsAgain) {
  BatchHarness h("dtypecut");
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b"}), 0) << h.output();
  const std::filesystem::path op = h.out() / "ops" / "ok_b";
  const size_t rows = read_results_jsonl((op / "results.jsonl").string()).size();
  ASSERT_GT(rows, 0u);
  std::filesystem::remove(op / ".complete");
  for (const char* file : {"attempt-1.log", "attempt-2.log", "dtypes/float16/results.jsonl",
                           "dtypes/float16/run.log", "dtypes/float32/attempt-1.log"}) {
    std::filesystem::create_directories((op / file).parent_path());
    write_file_atomic(op / file, "left by a cut run\n");
  }

  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b"}), 0) << h.output();
  EXPECT_EQ(h.calls("run op=ok_a ").size(), 1u);
  EXPECT_EQ(h.calls("run op=ok_b ").size(), 2u);
  EXPECT_EQ(h.status()["ok_b"].state, OpState::kOk);
  EXPECT_FALSE(std::filesystem::exists(op / "dtypes")) << "the cut run's reruns survived";
  EXPECT_FALSE(std::filesystem::exists(op / "attempt-2.log"));
  const std::string log = BatchHarness::read_or_empty(h.out() / "batch.log");
  EXPECT_NE(log.find("ok_b: cleared"), std::string::npos) << log;
  EXPECT_EQ(read_results_jsonl((op / "results.jsonl").string()).size(), rows);
}

// The same resume in a process where libtorch.so's copy of std::filesystem::remove_all wins the
// binding (LD_PRELOAD puts it first, as the H100 image's build of caliber had it): that copy
// jumps to address 0 on a non-empty directory (pytorch/pytorch#133437), which killed the H100
// resumes of piece 0 in the twenty-eighth, thirty-first and thirty-eighth sessions.
TEST(BatchResume, ALeftoverTreeIsClearedWhereLibtorchsRemoveAllWouldWin) {
  BatchHarness h("libtorchfs");
  EXPECT_EQ(h.run({"--ops", "ok_a"}), 0) << h.output();
  const std::filesystem::path op = h.out() / "ops" / "ok_a";
  std::filesystem::remove(op / ".complete");
  write_file_atomic(op / "dtypes" / "float16" / "results.jsonl", "left by a cut run\n");
  h.set_env("LD_PRELOAD", CALIBER_LIBTORCH);

  EXPECT_EQ(h.run({"--ops", "ok_a"}), 0) << h.output();
  EXPECT_EQ(h.status()["ok_a"].state, OpState::kOk);
  EXPECT_FALSE(std::filesystem::exists(op / "dtypes")) << "the cut run's reruns survived";
}

TEST(BatchResume, RefusesToResumeWithOtherKnobs) {
  BatchHarness h("otherknobs");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--dtypes", "float32"}), 0);
  EXPECT_EQ(h.run({"--ops", "ok_a", "--dtypes", "float16"}), 2);
  EXPECT_NE(h.output().find("other knobs"), std::string::npos) << h.output();
}

}  // namespace
}  // namespace caliber
