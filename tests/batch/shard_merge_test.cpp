#include "batch/shard_merge.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/ops_status.h"
#include "batch/slurm_sweep.h"
#include "batch_harness.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/run_identity.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

class ShardMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    layout_.out = dir_ / "sweep";
    SweepPlan plan;
    plan.shards = 2;
    plan.shard_ops = {{"a"}, {"b", "c"}};
    plan.shard_to_run = {1, 2};
    fs::create_directories(layout_.slurm_dir());
    write_sweep_plan(layout_, plan);
    add_op(0, "a", OpState::kOk, "graph", "node1", "12", "0", "13");
    add_op(1, "b", OpState::kOk, "graph", "node2", "12", "1", "14");
    add_op(1, "c", OpState::kPending, "graph", "", "", "", "");
    write_status(0, {"a"});
    write_status(1, {"b", "c"});
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  void add_op(int shard, const std::string& op, OpState state, const std::string& timer,
              const std::string& node, const std::string& array_job, const std::string& task,
              const std::string& job) {
    fs::path op_dir = layout_.shard_dir(shard) / "ops" / op;
    fs::create_directories(op_dir);
    RunIdentity id;
    id.backend = "cpu";
    id.timer = timer;
    id.level = "core";
    id.shape_set = "digest-of-" + op;  // per op: must not count as a caliber difference
    write_identity((op_dir / "run_identity.json").string(), id);
    write_file_atomic(op_dir / "results.jsonl",
                      "{\"op\":\"" + op + "\",\"dtype\":\"float32\",\"status\":\"SUCCESS\"}\n");
    OpStatus s;
    s.op = op;
    s.state = state;
    s.backend = "cpu";
    rows_[shard].push_back(s);
    if (!is_final(state)) return;
    nlohmann::json marker = to_json(s);
    marker["node"] = node;
    marker["slurm_array_job_id"] = array_job;
    marker["slurm_array_task_id"] = task;
    marker["slurm_job_id"] = job;
    write_file_atomic(op_dir / ".complete", marker.dump());
  }
  void write_status(int shard, const std::vector<std::string>&) {
    write_file_atomic(layout_.shard_dir(shard) / "ops_status.csv", status_csv(rows_[shard]));
  }
  std::string merged_row(const std::string& op) const {
    std::istringstream in(read_file(layout_.out / "ops_status.csv"));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(op + ",", 0) == 0) return line;
    }
    return "";
  }

  fs::path dir_ = testing::fresh_temp_dir("merge");
  SlurmLayout layout_;
  std::map<int, std::vector<OpStatus>> rows_;
};

TEST_F(ShardMerge, WritesOneStatusNamingNodeAndArrayTaskOfEachOp) {
  ShardMergeResult r = merge_shards(layout_, {});
  EXPECT_EQ(r.shards, 2);
  EXPECT_EQ(r.ops, 3);
  std::string header = read_file(layout_.out / "ops_status.csv");
  EXPECT_EQ(header.rfind(std::string(kStatusCsvHeader) + "," + kMergedStatusExtraColumns, 0), 0u);
  EXPECT_NE(merged_row("a").find(",0,node1,12,0,13,"), std::string::npos) << merged_row("a");
  EXPECT_NE(merged_row("b").find(",1,node2,12,1,14,"), std::string::npos) << merged_row("b");
  EXPECT_NE(merged_row("c").find(",pending,"), std::string::npos) << merged_row("c");
  // The merged view's ops/ reaches each shard's run directory.
  EXPECT_TRUE(fs::is_symlink(layout_.out / "ops" / "b"));
  EXPECT_TRUE(fs::exists(layout_.out / "ops" / "b" / "results.jsonl"));
  EXPECT_FALSE(r.all_ok);
}

TEST_F(ShardMerge, OpsOfATaskSlurmEndedAreTheTasksFailureNotTheOps) {
  SlurmTask t;
  t.array_job_id = "12";
  t.task = 1;
  t.job_id = "14";
  t.state = "TIMEOUT";
  t.node = "node2";
  ShardMergeResult r = merge_shards(layout_, {{1, t}});
  std::string row = merged_row("c");
  EXPECT_NE(row.find(",task_timeout,"), std::string::npos) << row;
  EXPECT_NE(row.find("ended TIMEOUT before this op finished"), std::string::npos) << row;
  EXPECT_NE(row.find(",1,node2,12,1,14,TIMEOUT"), std::string::npos) << row;
  EXPECT_EQ(r.by_status["task_timeout"], 1);
  EXPECT_EQ(r.by_status["ok"], 2);
  // A finished op keeps the task that measured it.
  EXPECT_NE(merged_row("b").find(",ok,"), std::string::npos);
}

TEST_F(ShardMerge, RefusesAShardOfAnotherCaliberByName) {
  add_op(1, "b", OpState::kOk, "direct", "node2", "12", "1", "14");
  try {
    merge_shards(layout_, {});
    FAIL() << "merged shards of two calibers";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(what.find("shard 1"), std::string::npos) << what;
    EXPECT_NE(what.find("timer: \"direct\" in shard 1 (op b), \"graph\" in shard 0 (op a)"),
              std::string::npos)
        << what;
  }
  EXPECT_FALSE(fs::exists(layout_.out / "ops_status.csv"));
}

TEST_F(ShardMerge, NamesOpsOfAShardThatNeverStarted) {
  fs::remove_all(layout_.shard_dir(1));
  ShardMergeResult r = merge_shards(layout_, {});
  EXPECT_NE(merged_row("b").find(",not_run,"), std::string::npos) << merged_row("b");
  EXPECT_EQ(r.by_status["not_run"], 2);
}

}  // namespace
}  // namespace caliber
