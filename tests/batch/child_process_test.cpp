#include "batch/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "batch_harness.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

class ChildProcessTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { prepare_parent_for_children(); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ChildExit run_shell(const std::string& script, double timeout_s) {
    ChildSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.stdout_path = dir_ / "out.log";
    ChildProcess child(spec);
    pid_ = child.pid();
    return child.wait(Clock::now() + std::chrono::milliseconds(int(timeout_s * 1000)), stop_, 0.3);
  }

  std::filesystem::path dir_ = testing::fresh_temp_dir("child");
  std::atomic<bool> stop_{false};
  pid_t pid_ = -1;
};

TEST_F(ChildProcessTest, ReportsTheExitCode) {
  ChildExit e = run_shell("echo hello; exit 3", 5);
  EXPECT_EQ(e.how, ChildExit::How::kExited);
  EXPECT_EQ(e.exit_code, 3);
  EXPECT_EQ(testing::BatchHarness::read_or_empty(dir_ / "out.log"), "hello\n");
}

TEST_F(ChildProcessTest, ReportsTheSignalThatKilledIt) {
  ChildExit e = run_shell("kill -SEGV $$", 5);
  EXPECT_EQ(e.how, ChildExit::How::kSignaled);
  EXPECT_EQ(e.signal, SIGSEGV);
}

TEST_F(ChildProcessTest, TimeoutKillsTheGroupGrandchildrenIncluded) {
  ChildExit e = run_shell("sleep 600 & echo $! > " + (dir_ / "gc").string() + "; wait", 0.5);
  EXPECT_EQ(e.how, ChildExit::How::kTimedOut);
  pid_t grandchild = std::stoi(testing::BatchHarness::read_or_empty(dir_ / "gc"));
  EXPECT_FALSE(testing::process_alive(grandchild));
  EXPECT_FALSE(testing::group_alive(pid_));
}

TEST_F(ChildProcessTest, ChildIgnoringSigtermIsKilledAfterTheGrace) {
  auto start = Clock::now();
  ChildExit e = run_shell("trap '' TERM; sleep 600 & wait; sleep 600", 0.2);
  EXPECT_EQ(e.how, ChildExit::How::kTimedOut);
  EXPECT_FALSE(testing::group_alive(pid_));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5.0);
}

TEST_F(ChildProcessTest, LeftoverGrandchildOfAFinishedChildIsKilled) {
  ChildExit e = run_shell("sleep 600 & echo $! > " + (dir_ / "gc").string() + "; exit 0", 5);
  EXPECT_EQ(e.exit_code, 0);
  pid_t grandchild = std::stoi(testing::BatchHarness::read_or_empty(dir_ / "gc"));
  EXPECT_FALSE(testing::process_alive(grandchild));
}

TEST_F(ChildProcessTest, StopRequestInterruptsAndKills) {
  stop_ = true;
  ChildExit e = run_shell("sleep 600", 60);
  EXPECT_EQ(e.how, ChildExit::How::kInterrupted);
  EXPECT_FALSE(testing::group_alive(pid_));
}

TEST_F(ChildProcessTest, RunsInItsOwnSessionWithTheEnvironmentChanges) {
  ::setenv("CALIBER_TEST_REMOVED", "x", 1);
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c",
               "echo $CALIBER_TEST_SET-${CALIBER_TEST_REMOVED:-gone}; ps -o sid= -p $$"};
  spec.env = {{"CALIBER_TEST_SET", "on"}, {"CALIBER_TEST_REMOVED", std::nullopt}};
  spec.stdout_path = dir_ / "env.log";
  ChildProcess child(spec);
  pid_t pid = child.pid();
  child.wait(Clock::now() + std::chrono::seconds(5), stop_, 0.3);
  std::string out = testing::BatchHarness::read_or_empty(dir_ / "env.log");
  EXPECT_EQ(out.substr(0, out.find('\n')), "on-gone");
  EXPECT_EQ(std::stoi(out.substr(out.find('\n') + 1)), pid);  // session leader
}

}  // namespace
}  // namespace caliber
