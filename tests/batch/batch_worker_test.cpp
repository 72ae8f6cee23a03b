// --isolation worker: one long-lived worker per lane, replaced after any failure, with the failed
// op retried in a fresh process.
#include <gtest/gtest.h>

#include "batch_harness.h"

namespace caliber {
namespace {

using testing::BatchHarness;

TEST(BatchWorker, OneWorkerServesConsecutivePassingOps) {
  BatchHarness h("worker_ok");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "ok_a,ok_b,ok_c", "--devices", "0"}), 0)
      << h.output();
  EXPECT_EQ(h.calls("worker-start").size(), 1u);
  EXPECT_EQ(h.calls("worker-run").size(), 3u);
  EXPECT_TRUE(h.calls("run op=").empty());
  for (const auto& [op, row] : h.status()) EXPECT_EQ(row.state, OpState::kOk) << op;
}

TEST(BatchWorker, FailedOpIsRetriedInAFreshProcessAndTheWorkerReplaced) {
  BatchHarness h("worker_fail");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "selftest_flaky,ok_a", "--devices", "0",
                   "--dtypes", "float32"}),
            0)
      << h.output();
  auto s = h.status();
  EXPECT_EQ(s["selftest_flaky"].state, OpState::kOk);
  EXPECT_EQ(s["selftest_flaky"].attempts, 2);
  EXPECT_EQ(h.calls("worker-run op=selftest_flaky ").size(), 1u);
  EXPECT_EQ(h.calls("run op=selftest_flaky ").size(), 1u);
  EXPECT_EQ(h.calls("worker-start").size(), 2u);  // the first was retired after the failure
}

TEST(BatchWorker, ClassifiesAWorkerCrashAndHang) {
  BatchHarness h("worker_crash");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "selftest_segfault,selftest_hang,ok_a",
                   "--devices", "0", "--dtypes", "float32", "--timeout-s", "1"}),
            1)
      << h.output();
  auto s = h.status();
  EXPECT_EQ(s["selftest_segfault"].state, OpState::kCrashed);
  EXPECT_EQ(s["selftest_segfault"].signal, "SIGSEGV");
  EXPECT_EQ(s["selftest_hang"].state, OpState::kHung);
  EXPECT_EQ(s["ok_a"].state, OpState::kOk);
  for (const auto& start : h.calls("worker-start")) {
    EXPECT_FALSE(testing::group_alive(std::stoi(BatchHarness::field(start, "pid")))) << start;
  }
}

// leak_a keeps 128 MiB in the worker; the op after it must get a fresh worker.
TEST(BatchWorker, AWorkerWhoseMemoryGrewPastTheLimitIsReplaced) {
  BatchHarness h("worker_recycle");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "ok_a,leak_a,ok_b", "--devices", "0",
                   "--worker-max-growth-mib", "64"}),
            0)
      << h.output();
  auto starts = h.calls("worker-start");
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_NE(BatchHarness::field(starts[0], "pid"), BatchHarness::field(starts[1], "pid"));
  std::string ok_b_run = h.calls("worker-run op=ok_b ").at(0);
  EXPECT_EQ(BatchHarness::field(ok_b_run, "pid"), BatchHarness::field(starts[1], "pid"));
  std::string log = BatchHarness::read_or_empty(h.out() / "batch.log");
  EXPECT_NE(log.find("worker on device 0 recycled after leak_a (its op 2)"), std::string::npos)
      << log;
  for (const auto& [op, row] : h.status()) EXPECT_EQ(row.state, OpState::kOk) << op;
}

// The replaced worker's exit overlaps its successor's start, and the successor's first request
// waits for that exit: nothing of the old process is left on the device when the next op runs.
TEST(BatchWorker, AReplacedWorkerExitsWhileItsSuccessorStarts) {
  BatchHarness h("worker_recycle_overlap");
  h.set_env("FAKE_WORKER_EXIT_S", "0.2");  // inside the harness's 0.3 s kill grace
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "ok_a,leak_a,ok_b", "--devices", "0",
                   "--worker-max-growth-mib", "64"}),
            0)
      << h.output();
  std::vector<std::string> lines = h.calls("worker-");
  auto index_of = [&lines](const std::string& prefix, const std::string& pid) {
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind(prefix, 0) == 0 && BatchHarness::field(lines[i], "pid") == pid) return i;
    }
    return lines.size();
  };
  auto starts = h.calls("worker-start");
  ASSERT_EQ(starts.size(), 2u) << h.output();
  const std::string old_pid = BatchHarness::field(starts[0], "pid");
  const std::string new_pid = BatchHarness::field(starts[1], "pid");
  const size_t old_exit = index_of("worker-exit", old_pid);
  ASSERT_LT(old_exit, lines.size());
  EXPECT_LT(index_of("worker-start", new_pid), old_exit);
  EXPECT_GT(index_of("worker-run op=ok_b ", new_pid), old_exit);
  for (const auto& [op, row] : h.status()) EXPECT_EQ(row.state, OpState::kOk) << op;
}

TEST(BatchWorker, NoGrowthLimitKeepsOneWorker) {
  BatchHarness h("worker_no_recycle");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "ok_a,leak_a,ok_b", "--devices", "0",
                   "--worker-max-growth-mib", "0"}),
            0)
      << h.output();
  EXPECT_EQ(h.calls("worker-start").size(), 1u);
  EXPECT_EQ(BatchHarness::read_or_empty(h.out() / "batch.log").find("recycled"), std::string::npos);
}

TEST(BatchWorker, AStretchBelowOneIsRefusedNamingTheKnob) {
  BatchHarness h("bad_stretch");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--timeout-stretch", "0.5"}), 2);
  EXPECT_NE(h.output().find("--timeout-stretch 0.5: accepted: a number >= 1"), std::string::npos)
      << h.output();
  EXPECT_TRUE(h.calls("run op=").empty());
  EXPECT_TRUE(h.calls("worker-start").empty());
}

TEST(BatchWorker, ANegativeGrowthLimitIsRefusedNamingTheKnob) {
  BatchHarness h("worker_bad_limit");
  EXPECT_EQ(h.run({"--isolation", "worker", "--ops", "ok_a", "--worker-max-growth-mib", "-5"}), 2);
  EXPECT_NE(h.output().find("--worker-max-growth-mib -5: accepted: a number >= 0"),
            std::string::npos)
      << h.output();
  EXPECT_TRUE(h.calls("worker-start").empty());
}

TEST(BatchWorker, DeviceFatalIsToldApartFromFailure) {
  BatchHarness h("worker_fatal");
  h.run({"--isolation", "worker", "--ops", "selftest_device_fatal", "--devices", "0", "--dtypes",
         "float32", "--retries", "0"});
  EXPECT_EQ(h.status()["selftest_device_fatal"].state, OpState::kDeviceFatal);
}

}  // namespace
}  // namespace caliber
