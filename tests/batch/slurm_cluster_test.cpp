// `caliber batch --launcher slurm` against real Slurm daemons: the multi-node test cluster of
// scripts/slurm_cluster.sh (scripts/test.sh starts it as root). Without a running cluster these
// tests skip, except under CI (CI set), where they must run.
#include <gtest/gtest.h>

#include <set>

#include "batch_harness.h"
#include "cli/shell_command.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;
using testing::BatchHarness;

// Named CPU ops, not families: enough for three shards of several ops each, each op a real
// `caliber run` on the host; a family grows with the corpus and takes in ops dismissed on the host.
const char* const kOps =
    "layer_norm,group_norm,rms_norm,batch_norm,instance_norm,native_layer_norm,softmax,"
    "log_softmax,softmax_backward,log_softmax_backward_data";

std::string cluster_conf() {
  if (const char* conf = std::getenv("SLURM_CONF"); conf != nullptr && *conf != '\0') return conf;
  return "/tmp/caliber-slurm/etc/slurm.conf";
}

// Why no usable cluster is there, or empty when there is one with at least two idle nodes.
std::string cluster_missing() {
  std::string conf = cluster_conf();
  if (!fs::exists(conf)) return "no " + conf + " (start one: scripts/slurm_cluster.sh start)";
  auto r = testing::run_shell("SLURM_CONF=" + conf + " timeout 20 sinfo -h -N -o '%N %t'");
  if (r.exit_code != 0) return "sinfo failed: " + r.output;
  std::set<std::string> nodes;
  std::istringstream in(r.output);
  for (std::string node, state; in >> node >> state;) {
    if (state == "idle" || state == "mix" || state == "alloc") nodes.insert(node);
  }
  if (nodes.size() < 2) return "fewer than two usable nodes: " + r.output;
  return "";
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string missing = cluster_missing();
    if (!missing.empty()) {
      if (std::getenv("CI") != nullptr) FAIL() << "CI needs the Slurm test cluster: " << missing;
      GTEST_SKIP() << "no Slurm test cluster running: " << missing;
    }
    h_.set_env("SLURM_CONF", cluster_conf());
    h_.set_env("CALIBER_SLURM_POLL_S", "0.5");
    // The out directory lives beside the binary, not in /tmp: on some machines /tmp is a tmpfs,
    // which the launcher rightly refuses for a multi-node partition.
    out_ = fs::path(CALIBER_BINARY).parent_path() / "slurm-tests" /
           (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(out_);
  }
  void TearDown() override {
    // The sweep's merge jobs may still be writing there: wait for them to leave the queue.
    std::string ids;
    std::istringstream in(BatchHarness::read_or_empty(out_ / "slurm" / "submissions.jsonl"));
    for (std::string line; std::getline(in, line);) {
      size_t at = line.find("\"merge_job_id\":\"");
      if (at == std::string::npos) continue;
      at += 16;
      ids += (ids.empty() ? "" : ",") + line.substr(at, line.find('"', at) - at);
    }
    if (!ids.empty()) {
      testing::wait_for(
          [&] {
            return testing::run_shell("SLURM_CONF=" + cluster_conf() + " squeue -h -j " + ids)
                .output.empty();
          },
          60);
    }
    std::error_code ec;
    if (std::getenv("CALIBER_KEEP_TEST_DIRS") == nullptr) fs::remove_all(out_, ec);
  }

  std::vector<std::string> command() const {
    return {CALIBER_BINARY, "batch", "--launcher", "slurm", "--nodes", "3", "--backend", "cpu",
            "--ops", kOps, "--dtypes", "float32",
            // float32: the CPU lacks Half kernels for some of them (ops/dismiss.yaml); this test is
            // about shards, not kernels.
            "--out", out_.string(), "--timeout-s", "300", "--sbatch-arg=--exclusive",
            "--no-progress"};
  }

  // ops_status.csv of the merge, by op: the whole line.
  std::map<std::string, std::vector<std::string>> merged() const {
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream in(BatchHarness::read_or_empty(out_ / "ops_status.csv"));
    std::string line;
    std::getline(in, line);
    header_ = split_fields(line);
    while (std::getline(in, line)) {
      auto f = split_fields(line);
      if (!f.empty()) rows[f[0]] = f;
    }
    return rows;
  }
  std::string field(const std::vector<std::string>& row, const std::string& name) const {
    for (size_t i = 0; i < header_.size() && i < row.size(); ++i) {
      if (header_[i] == name) return row[i];
    }
    return "";
  }
  // Enough for these rows: no field of theirs that matters here holds a comma.
  static std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.emplace_back();
      } else {
        out.back() += c;
      }
    }
    return out;
  }

  BatchHarness h_{"slurm", /*fake_child=*/false};
  fs::path out_;
  mutable std::vector<std::string> header_;
};

TEST_F(SlurmCluster, ThreeTaskArrayRunsShardsOnSeveralNodesAndMerges) {
  int code = BatchHarness::wait(h_.spawn(command()));
  ASSERT_EQ(code, 0) << h_.output();
  auto rows = merged();
  ASSERT_GE(rows.size(), 6u) << h_.output();
  std::set<std::string> nodes;
  std::set<std::string> shards;
  for (const auto& [op, row] : rows) {
    EXPECT_EQ(field(row, "status"), "ok") << op;
    EXPECT_FALSE(field(row, "slurm_job_id").empty()) << op;
    nodes.insert(field(row, "node"));
    shards.insert(field(row, "shard"));
  }
  EXPECT_EQ(shards, (std::set<std::string>{"0", "1", "2"}));
  EXPECT_GE(nodes.size(), 2u) << "every shard ran on one node";
  // Each shard is an ordinary batch directory of its own ops only.
  for (int i = 0; i < 3; ++i) {
    std::string identity = read_file(out_ / "shards" / std::to_string(i) / "batch_identity.json");
    EXPECT_NE(identity.find("\"shard\": \"" + std::to_string(i) + "/3\""), std::string::npos);
  }
  // The merged directory is a batch directory for report, summary and compare.
  EXPECT_TRUE(fs::exists(out_ / "summary.csv"));
  std::string bin = CALIBER_BINARY;
  auto summary = testing::run_shell(bin + " summary -q " + out_.string() + " -o " +
                                    (out_ / "again.csv").string());
  EXPECT_EQ(summary.exit_code, 0) << summary.output;
  auto report = testing::run_shell(bin + " report " + out_.string() + " -o " +
                                   (out_ / "report.html").string());
  EXPECT_EQ(report.exit_code, 0) << report.output;
  auto compare = testing::run_shell(bin + " compare " + out_.string() + " " + out_.string());
  EXPECT_EQ(compare.exit_code, 0) << compare.output;
}

TEST_F(SlurmCluster, ResumeAfterScancelOfOneTaskRedoesNothingFinishedAndLosesNothing) {
  pid_t launcher = h_.spawn(command());
  // The shard with the most ops: cancel its task once it finished some but not all.
  fs::path plan = out_ / "slurm" / "plan.json";
  ASSERT_TRUE(testing::wait_for([&] { return fs::exists(plan); }, 120)) << h_.output();
  auto shard_markers = [&](int shard) {
    int n = 0;
    std::error_code ec;
    for (const auto& e :
         fs::directory_iterator(out_ / "shards" / std::to_string(shard) / "ops", ec)) {
      if (fs::exists(e.path() / ".complete")) ++n;
    }
    return n;
  };
  std::string plan_text = read_file(plan);
  int victim = 0;
  {
    // plan.json's shard_to_run: [n0, n1, n2]
    size_t at = plan_text.find("\"shard_to_run\"");
    ASSERT_NE(at, std::string::npos);
    std::istringstream in(plan_text.substr(plan_text.find('[', at) + 1));
    int best = -1;
    for (int i = 0; i < 3; ++i) {
      int n = 0;
      char sep = 0;
      in >> n >> sep;
      if (n > best) {
        best = n;
        victim = i;
      }
    }
    ASSERT_GE(best, 3) << plan_text;
  }
  ASSERT_TRUE(testing::wait_for([&] { return shard_markers(victim) >= 1; }, 300)) << h_.output();
  std::string submissions = read_file(out_ / "slurm" / "submissions.jsonl");
  size_t id_at = submissions.find("\"array_job_id\":\"") + 16;
  std::string array_job = submissions.substr(id_at, submissions.find('"', id_at) - id_at);
  auto cancel = testing::run_shell("SLURM_CONF=" + cluster_conf() + " scancel " + array_job + "_" +
                                   std::to_string(victim));
  ASSERT_EQ(cancel.exit_code, 0) << cancel.output;

  EXPECT_EQ(BatchHarness::wait(launcher), 1) << h_.output();
  auto rows = merged();
  std::map<std::string, std::string> finished;  // op -> its .complete marker before the resume
  int cancelled = 0;
  for (const auto& [op, row] : rows) {
    std::string status = field(row, "status");
    if (status == "ok") {
      finished[op] = read_file(out_ / "ops" / op / ".complete");
    } else {
      EXPECT_EQ(status, "task_cancelled") << op;
      EXPECT_EQ(field(row, "shard"), std::to_string(victim)) << op;
      ++cancelled;
    }
  }
  ASSERT_GE(cancelled, 1) << "the cancelled task had finished its shard already";
  size_t total = rows.size();

  // The same command again: only the cancelled shard is submitted, and it resumes.
  int code = BatchHarness::wait(h_.spawn(command()));
  EXPECT_EQ(code, 0) << h_.output();
  EXPECT_NE(h_.output().find("1 to submit (" + std::to_string(victim) + ")"), std::string::npos)
      << h_.output();
  rows = merged();
  EXPECT_EQ(rows.size(), total);
  for (const auto& [op, row] : rows) EXPECT_EQ(field(row, "status"), "ok") << op;
  for (const auto& [op, marker] : finished) {
    // Redone, the marker would name the second task's job id.
    EXPECT_EQ(read_file(out_ / "ops" / op / ".complete"), marker) << op << " was redone";
  }
}

}  // namespace
}  // namespace caliber
