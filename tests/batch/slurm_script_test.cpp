#include "batch/slurm_script.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

SlurmScriptInput input(int nodes, int gpus) {
  SlurmScriptInput in;
  in.binary = "/opt/caliber/bin/caliber";
  in.workdir = "/shared/work";
  in.layout.out = "/shared/sweep";
  in.slurm.nodes = nodes;
  in.slurm.gpus_per_node = gpus;
  in.slurm.partition = "gpu";
  in.slurm.time_limit = "04:00:00";
  in.slurm.sbatch_args = {"--account=perf", "--exclusive"};
  in.shard_args = {"--family", "blas,reduction", "--timer", "graph", "--no-progress"};
  return in;
}

TEST(SlurmScript, ArrayTaskRunsItsShardIntoItsOwnDirectory) {
  std::string s = array_script(input(3, 8));
  EXPECT_NE(s.find("exec /opt/caliber/bin/caliber batch --shard \"$shard/3\" --out "
                   "\"/shared/sweep/shards/$shard\" --family blas,reduction --timer graph"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("shard=${SLURM_ARRAY_TASK_ID:?"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --gres=gpu:8\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --partition=gpu\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --time=04:00:00\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --account=perf\n#SBATCH --exclusive\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --ntasks=1\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --chdir=/shared/work\n"), std::string::npos);
  // --array is left to each submission: a resume names only the incomplete shards.
  EXPECT_EQ(s.find("#SBATCH --array"), std::string::npos);
}

TEST(SlurmScript, LeavesTheDeviceVisibilitySlurmSetAlone) {
  std::string s = array_script(input(2, 1));
  EXPECT_EQ(s.find("VISIBLE_DEVICES="), std::string::npos) << s;
  EXPECT_EQ(s.find("--devices"), std::string::npos);
}

TEST(SlurmScript, AsksForNoGpuWhenNoneIsWanted) {
  EXPECT_EQ(array_script(input(2, 0)).find("--gres"), std::string::npos);
}

TEST(SlurmScript, MergeJobMergesTheOutDirectory) {
  std::string s = merge_script(input(3, 8));
  EXPECT_NE(s.find("exec /opt/caliber/bin/caliber batch --merge /shared/sweep\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("--gres"), std::string::npos);
}

TEST(SlurmScript, ShardArgumentsCarryTheKnobsButNotTheOutDirectory) {
  BatchOptions o;
  o.knob_flags["timer"] = "direct";
  o.knob_flags["out_dir"] = "/somewhere";
  o.selection.families = {"norm", "softmax"};
  o.retries = 1;
  o.timeout_stretch = 2.5;
  std::vector<std::string> args = shard_batch_args(o);
  std::string joined;
  for (const auto& a : args) joined += a + " ";
  EXPECT_NE(joined.find("--timer direct "), std::string::npos) << joined;
  EXPECT_NE(joined.find("--family norm,softmax "), std::string::npos) << joined;
  EXPECT_NE(joined.find("--retries 1 "), std::string::npos) << joined;
  EXPECT_NE(joined.find("--timeout-stretch 2.5 "), std::string::npos) << joined;
  EXPECT_EQ(joined.find("/somewhere"), std::string::npos) << joined;
}

TEST(SlurmScript, ArrayRangesCompressRuns) {
  EXPECT_EQ(array_ranges({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(array_ranges({4}), "4");
  EXPECT_EQ(array_ranges({}), "");
}

TEST(SlurmScript, QuotesForTheShellOnlyWhenNeeded) {
  EXPECT_EQ(shell_quote("/a/b-c_1.x"), "/a/b-c_1.x");
  EXPECT_EQ(shell_quote("python:flag_gems"), "python:flag_gems");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(SlurmScript, AcceptsSbatchTimeFormsOnly) {
  for (const char* ok : {"30", "30:00", "04:00:00", "1-12", "1-12:30", "2-00:00:00", "UNLIMITED"}) {
    EXPECT_TRUE(valid_time_limit(ok)) << ok;
  }
  for (const char* bad : {"", "1h", "4:00:00:00", "-5", "1-", "abc"}) {
    EXPECT_FALSE(valid_time_limit(bad)) << bad;
  }
}

}  // namespace
}  // namespace caliber
