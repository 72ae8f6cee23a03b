// `caliber run` and `caliber batch` read one dismiss list, found through the same data path
// ($CALIBER_DATA_DIR/ops/dismiss.yaml), and agree on which ops it dismisses: an entry narrowed to
// one backend and one dtype dismisses the op in neither, an entry for the whole op on the
// backend in both (run notes it, batch sets it aside).

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <string>

#include "cli/shell_command.h"
#include "core/atomic_file.h"
#include "core/ops_status.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

constexpr const char* kCleanEnv =
    "env -u BENCH_LEVEL -u DTYPES -u SHAPE_MODE -u OP -u TEST_NODE -u ZL_BACKEND "
    "-u ZL_DIRECT_REPEAT -u ZL_ENABLE_CUDAGRAPH -u ZL_ISOLATE_TUNER_CACHE -u USE_FLAGTUNE "
    "-u PARALLEL_WARMUP_GPUS -u REPLAY_FROM -u CALIBER_SELFTEST -u CALIBER_SELFTEST_STATE "
    "-u CALIBER_PEAKS_FILE NO_COLOR=1 OMP_NUM_THREADS=1";
constexpr const char* kQuick = "--backend cpu --dtypes float32 --warmup-ms 1 --rep-ms 3";

class DismissList : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(data_ / "ops");
    // The run needs the shapes and the capture-deny list of the tree, beside the test's list.
    ASSERT_EQ(::symlink((std::string(CALIBER_SOURCE_DIR) + "/shapes").c_str(),
                        (data_ / "shapes").c_str()),
              0);
    ASSERT_EQ(::symlink((std::string(CALIBER_SOURCE_DIR) + "/ops/capture_deny.yaml").c_str(),
                        (data_ / "ops" / "capture_deny.yaml").c_str()),
              0);
    write_file_atomic(data_ / "ops" / "dismiss.yaml",
                      "- {op: abs, reason: narrowed, verified_on: test, backend: cpu, "
                      "dtypes: [float32]}\n"
                      "- {op: exp, reason: another backend, verified_on: test, backend: cuda}\n"
                      "- {op: neg, reason: whole op, verified_on: test, backend: cpu}\n");
  }

  testing::ShellResult caliber(const std::string& args) const {
    return testing::run_shell("cd '" + dir_.path().string() + "' && " + kCleanEnv +
                              " CALIBER_DATA_DIR='" + data_.string() + "' CALIBER_PEAKS_FILE='" +
                              (dir_ / "peaks.json").string() + "' " + CALIBER_BINARY + " " + args);
  }

  testing::TempDir dir_{"caliber-cli-dismiss"};
  std::filesystem::path data_ = dir_ / "data";
};

TEST_F(DismissList, RunAndBatchDismissTheSameOps) {
  auto batch = caliber(std::string("batch --ops abs,exp,neg --isolation op --no-progress --out ") +
                       (dir_ / "batch").string() + " " + kQuick);
  ASSERT_EQ(batch.exit_code, 0) << batch.output;
  std::map<std::string, OpState> batch_states;
  for (const auto& s : read_ops_status(dir_ / "batch" / "ops_status.csv")) {
    batch_states[s.op] = s.state;
  }
  for (const char* op : {"abs", "exp", "neg"}) {
    auto run = caliber(std::string("run --no-progress --op ") + op + " --out " +
                       (dir_ / op).string() + " " + kQuick);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    bool run_dismisses = run.output.find("is on the dismiss list") != std::string::npos;
    ASSERT_EQ(batch_states.count(op), 1u) << op;
    bool batch_dismisses = batch_states[op] == OpState::kDismissed;
    EXPECT_EQ(run_dismisses, batch_dismisses) << op << "\n" << run.output;
    EXPECT_EQ(batch_dismisses, std::string(op) == "neg") << op;
  }
}

}  // namespace
}  // namespace caliber
