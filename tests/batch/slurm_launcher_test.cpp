// `caliber batch --launcher slurm` refuses bad input with exit 2 before anything is submitted,
// and --no-submit writes the job array script without needing Slurm at all. (The runs against
// real Slurm daemons are in slurm_cluster_test.cpp.)
#include <gtest/gtest.h>

#include "batch_harness.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;
using testing::BatchHarness;

class SlurmLauncher : public ::testing::Test {
 protected:
  int batch(std::vector<std::string> args) {
    std::vector<std::string> argv = {CALIBER_BINARY, "batch", "--backend",
                                     "cpu",          "--out", h_.out().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return BatchHarness::wait(h_.spawn(argv));
  }
  bool nothing_submitted() const { return !fs::exists(h_.out() / "slurm" / "submissions.jsonl"); }
  BatchHarness h_{"slurm-launcher"};
};

TEST_F(SlurmLauncher, RefusesZeroNodes) {
  EXPECT_EQ(batch({"--launcher", "slurm", "--nodes", "0", "--ops", "ok_a"}), 2);
  EXPECT_NE(h_.output().find("--nodes 0: accepted: an integer >= 1"), std::string::npos)
      << h_.output();
  EXPECT_TRUE(nothing_submitted());
}

TEST_F(SlurmLauncher, RefusesWhenNoSbatchIsOnPath) {
  h_.set_env("PATH", "/nonexistent-caliber-test-path");
  EXPECT_EQ(batch({"--launcher", "slurm", "--nodes", "2", "--ops", "ok_a,ok_b"}), 2);
  EXPECT_NE(h_.output().find("no sbatch on PATH"), std::string::npos) << h_.output();
  EXPECT_TRUE(nothing_submitted());
}

TEST_F(SlurmLauncher, RefusesAShardSpecOutOfRange) {
  EXPECT_EQ(batch({"--shard", "3/3", "--ops", "ok_a"}), 2);
  EXPECT_NE(h_.output().find("--shard: '3/3' is not a shard (accepted: I/N with 0 <= I < N)"),
            std::string::npos)
      << h_.output();
}

TEST_F(SlurmLauncher, RefusesAShardGivenToTheSlurmLauncher) {
  EXPECT_EQ(batch({"--launcher", "slurm", "--shard", "0/2", "--ops", "ok_a"}), 2);
  EXPECT_NE(h_.output().find("--shard 0/2: not accepted with --launcher slurm"), std::string::npos)
      << h_.output();
}

TEST_F(SlurmLauncher, RefusesSlurmFlagsOnALocalBatch) {
  EXPECT_EQ(batch({"--nodes", "2", "--ops", "ok_a"}), 2);
  EXPECT_NE(h_.output().find("--nodes: only with --launcher slurm"), std::string::npos)
      << h_.output();
  EXPECT_FALSE(fs::exists(h_.out() / "ops_status.csv"));
}

TEST_F(SlurmLauncher, RefusesATimeLimitSlurmWouldNotRead) {
  EXPECT_EQ(batch({"--launcher", "slurm", "--time-limit", "1h", "--ops", "ok_a", "--no-submit"}),
            2);
  EXPECT_NE(h_.output().find("--time-limit: '1h' is not a Slurm time"), std::string::npos)
      << h_.output();
}

TEST_F(SlurmLauncher, RefusesAnUnknownOpBeforeSubmitting) {
  EXPECT_EQ(batch({"--launcher", "slurm", "--nodes", "2", "--ops", "no_such_op", "--no-submit"}),
            2);
  EXPECT_NE(h_.output().find("no_such_op"), std::string::npos) << h_.output();
  EXPECT_TRUE(nothing_submitted());
}

TEST_F(SlurmLauncher, NoSubmitWritesTheArrayScriptAndPrintsTheSbatchCommand) {
  h_.set_env("PATH", "/nonexistent-caliber-test-path");
  ASSERT_EQ(
      batch({"--launcher", "slurm", "--nodes", "3", "--gpus-per-node", "2", "--partition", "gpu",
             "--sbatch-arg=--account=perf", "--ops", "ok_a,ok_b,ok_c,mm", "--no-submit"}),
      0)
      << h_.output();
  fs::path script = h_.out() / "slurm" / "array.sbatch";
  EXPECT_NE(h_.output().find("sbatch --array=0-2 " + script.string()), std::string::npos)
      << h_.output();
  std::string text = BatchHarness::read_or_empty(script);
  EXPECT_NE(text.find("#SBATCH --gres=gpu:2"), std::string::npos) << text;
  EXPECT_NE(text.find("#SBATCH --account=perf"), std::string::npos) << text;
  EXPECT_NE(text.find("--ops ok_a,ok_b,ok_c,mm"), std::string::npos) << text;
  EXPECT_TRUE(fs::exists(h_.out() / "slurm" / "merge.sbatch"));
  EXPECT_TRUE(nothing_submitted());
}

}  // namespace
}  // namespace caliber
