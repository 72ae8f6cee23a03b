#include "batch/slurm_client.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

TEST(SlurmClient, ReadsArrayTasksFromSqueue) {
  auto tasks = parse_squeue("12|0|13|RUNNING|node1\n12|2|12|PENDING|\n99|N/A|99|RUNNING|node2\n");
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].array_job_id, "12");
  EXPECT_EQ(tasks[0].task, 0);
  EXPECT_EQ(tasks[0].job_id, "13");
  EXPECT_EQ(tasks[0].node, "node1");
  EXPECT_EQ(tasks[1].state, "PENDING");
  EXPECT_EQ(tasks[1].node, "");
}

TEST(SlurmClient, ReadsFinishedTasksFromSacct) {
  auto tasks = parse_sacct(
      "12_0|13|COMPLETED|node1|0:0\n12_1|14|CANCELLED by 0|node2|0:15\n"
      "12_2|15|TIMEOUT|node1|0:0\n12_[3-5]|12|PENDING|None assigned|0:0\n");
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[1].task, 1);
  EXPECT_EQ(tasks[1].state, "CANCELLED");
  EXPECT_EQ(tasks[1].exit_code, "0:15");
  EXPECT_EQ(tasks[2].state, "TIMEOUT");
}

TEST(SlurmClient, ReadsTasksFromScontrolWhenAccountingIsOff) {
  auto tasks = parse_scontrol_jobs(
      "JobId=14 ArrayJobId=12 ArrayTaskId=1 JobName=caliber-batch JobState=NODE_FAIL "
      "Reason=None NodeList=node2 ExitCode=0:0\n"
      "JobId=12 ArrayJobId=12 ArrayTaskId=3-5 JobState=PENDING NodeList=(null)\n");
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].job_id, "14");
  EXPECT_EQ(tasks[0].state, "NODE_FAIL");
  EXPECT_EQ(tasks[0].node, "node2");
}

TEST(SlurmClient, OnlyQueuedAndRunningTasksAreActive) {
  for (const char* s : {"PENDING", "RUNNING", "COMPLETING", "REQUEUED"})
    EXPECT_TRUE(task_active(s));
  for (const char* s : {"COMPLETED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "FAILED"}) {
    EXPECT_FALSE(task_active(s)) << s;
  }
}

TEST(SlurmClient, RefusesToSubmitWithoutSbatchOnPath) {
  EnvLookup env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "PATH") return std::string("/nonexistent-caliber-test");
    return std::nullopt;
  };
  try {
    SlurmClient client(env, "/tmp", /*need_sbatch=*/true);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("no sbatch on PATH"), std::string::npos);
  }
}

}  // namespace
}  // namespace caliber
