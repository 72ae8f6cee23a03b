// The warm pass (`caliber batch --warm-pass N`, `caliber run --warm-only`) end to end on the CPU
// backend: the real binary in a temporary directory, with tests/providers/toy_override.py as the
// candidate. Its add and relu overrides note each process's first call and the FLAGGEMS_DB_URL it
// ran under in TOY_OVERRIDE_CALL_LOG.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/shell_command.h"
#include "core/atomic_file.h"
#include "core/ops_status.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::TempDir;

constexpr const char* kCleanEnv =
    "env -u BENCH_LEVEL -u DTYPES -u SHAPE_MODE -u OP -u OP_FILE -u TEST_NODE -u ZL_BACKEND "
    "-u ZL_DIRECT_REPEAT -u ZL_ENABLE_CUDAGRAPH -u ZL_ISOLATE_TUNER_CACHE -u USE_FLAGTUNE "
    "-u PARALLEL_WARMUP_GPUS -u REPLAY_FROM -u CALIBER_SELFTEST -u CALIBER_SELFTEST_STATE "
    "-u CALIBER_PEAKS_FILE -u FLAGGEMS_DB_URL NO_COLOR=1 OMP_NUM_THREADS=1";
constexpr const char* kQuick = "--backend cpu --warmup-ms 1 --rep-ms 3 --no-progress";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t count_containing(const std::vector<std::string>& lines, const std::string& text) {
  size_t n = 0;
  for (const auto& line : lines) n += line.find(text) != std::string::npos ? 1 : 0;
  return n;
}

class WarmPass : public ::testing::Test {
 protected:
  TempDir dir_{"caliber-warm"};
  fs::path out(const std::string& name) const { return dir_.path() / name; }
  fs::path call_log() const { return out("calls.log"); }

  testing::ShellResult caliber(const std::string& args) const {
    return testing::run_shell("cd '" + dir_.path().string() + "' && " + kCleanEnv +
                              " PYTHONPATH=" + CALIBER_PROVIDER_TEST_DIR +
                              " TOY_OVERRIDE_CALL_LOG=" + call_log().string() + " " +
                              CALIBER_BINARY + " " + args);
  }

  // `caliber run --warm-only 1` of OP in float32 with CANDIDATE, into out(name).
  testing::ShellResult warm_run(const std::string& op, const std::string& candidate,
                                const std::string& name) const {
    return caliber(std::string("run ") + kQuick + " --op " + op + " --dtypes float32 --candidate " +
                   candidate + " --warm-only 1 --out " + out(name).string());
  }
};

TEST_F(WarmPass, AWarmRunCallsTheCandidateOnEveryCaseAndKeepsNoRows) {
  auto r = warm_run("add", "python:toy_override", "warm_add");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(out("warm_add") / "results.jsonl"));
  std::string log = read_file(out("warm_add") / "run.log");
  EXPECT_THAT(log, HasSubstr("warm only: each case's inputs and one untimed call"));
  EXPECT_THAT(log, HasSubstr("warm only: 2 case(s) warmed, 0 failed, 0 not covered"));
  EXPECT_THAT(log, HasSubstr("0 rows, 0 failed"));
  // No peaks probe: warm runs share a device, and their peaks would be measured under load.
  EXPECT_FALSE(fs::exists(out("warm_add") / "device_peaks.json"));
  // The candidate's kernel ran: its first call is in the log.
  EXPECT_EQ(lines_of(read_file(call_log())).size(), 1u);
}

TEST_F(WarmPass, AnOpTheCandidateDoesNotCoverBuildsNothing) {
  auto r = warm_run("mul", "python:toy_override", "warm_mul");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(read_file(out("warm_mul") / "run.log"),
              HasSubstr("warm only: 0 case(s) warmed, 0 failed, 2 not covered"));
  EXPECT_FALSE(fs::exists(call_log()));
}

TEST_F(WarmPass, AFailingCandidateCallIsReportedAndTheWarmRunStillPasses) {
  auto r = warm_run("add", "python:toy_override:raising_context", "warm_raise");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::string log = read_file(out("warm_raise") / "run.log");
  EXPECT_THAT(log, HasSubstr("warm only: 2 case(s) warmed, 2 failed (first: float32"));
  EXPECT_THAT(log, HasSubstr("toy_override refuses to add"));
}

TEST_F(WarmPass, ABatchWarmsEveryOpInItsWarmLanesThenScreensWithTheRealDatabase) {
  auto r = caliber(std::string("batch --backend cpu --ops add,relu --dtypes float32 "
                               "--warmup-ms 1 --rep-ms 3 --no-progress "
                               "--candidate python:toy_override --warm-pass 2 --out ") +
                   out("batch").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto warm = read_ops_status(out("batch") / "warm" / "ops_status.csv");
  ASSERT_EQ(warm.size(), 2u);
  for (const auto& row : warm) EXPECT_EQ(row.state, OpState::kOk) << row.op << ": " << row.error;
  for (const char* op : {"add", "relu"}) {
    fs::path warm_op = out("batch") / "warm" / "ops" / op;
    EXPECT_FALSE(fs::exists(warm_op / "results.jsonl")) << op;
    EXPECT_THAT(read_file(warm_op / "run.log"),
                HasSubstr("warm only: 2 case(s) warmed, 0 failed, 0 not covered"));
    EXPECT_TRUE(fs::exists(out("batch") / "ops" / op / "results.jsonl")) << op;
  }
  auto screen = read_ops_status(out("batch") / "ops_status.csv");
  ASSERT_EQ(screen.size(), 2u);
  for (const auto& row : screen) EXPECT_EQ(row.state, OpState::kOk) << row.op;
  // Warm processes tuned into FlagGems' throwaway in-memory database; the screen's did not.
  auto calls = lines_of(read_file(call_log()));
  EXPECT_GE(count_containing(calls, "FLAGGEMS_DB_URL=sqlite:///:memory:"), 1u) << r.output;
  EXPECT_GE(count_containing(calls, "FLAGGEMS_DB_URL="), 2u);
  EXPECT_EQ(count_containing(calls, "FLAGGEMS_DB_URL=sqlite") + 1,
            count_containing(calls, "FLAGGEMS_DB_URL="))
      << "one screen worker, the rest warm lanes:\n"
      << read_file(call_log());
  std::string batch_log = read_file(out("batch") / "batch.log");
  EXPECT_THAT(batch_log, HasSubstr("warm pass: 2 lane(s) on device 0"));
  // The screen's worker says in its own log what each op cost it outside the op's run.
  std::string worker_log = read_file(out("batch") / "workers" / "device-0.log");
  for (const char* op : {"add", "relu"}) {
    EXPECT_THAT(worker_log, HasSubstr(std::string("worker: ") + op + " exit 0: answered in "))
        << worker_log;
  }
  EXPECT_THAT(worker_log, HasSubstr("ms, heap trimmed in "));
  EXPECT_THAT(read_file(out("batch") / "batch_identity.json"), HasSubstr("\"warm_pass\": 2"));

  // Resumed, the batch warms and screens nothing again.
  fs::remove(call_log());
  r = caliber(std::string("batch --backend cpu --ops add,relu --dtypes float32 --warmup-ms 1 "
                          "--rep-ms 3 --no-progress --candidate python:toy_override "
                          "--warm-pass 2 --out ") +
              out("batch").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(call_log())) << read_file(call_log());
}

TEST_F(WarmPass, AWarmPassWithoutACandidateOrWithTooManyLanesIsRefused) {
  auto r = caliber("batch --backend cpu --ops add --warm-pass 2 --out " + out("none").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--warm-pass: 2 needs --candidate"));
  EXPECT_FALSE(fs::exists(out("none") / "ops_status.csv"));
  r = caliber(
      "batch --backend cpu --ops add --candidate python:toy_override --warm-pass 17 --out " +
      out("many").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--warm-pass: 17 is not accepted (accepted: 0 to 16"));
  // --warm-only is a run's knob: a batch asks for warm runs with --warm-pass.
  r = caliber("batch --backend cpu --ops add --warm-only 1 --out " + out("only").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace caliber
