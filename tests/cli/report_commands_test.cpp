// Runs the real `caliber` binary: summary, compare and report in a temporary directory, checking
// exit codes and the artifacts they leave.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>

#include "cli/shell_command.h"
#include "core/csv.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::synthetic_samples;
using testing::TempDir;
using testing::test_identity;
using testing::test_row;
using testing::write_run;

using Result = testing::ShellResult;

size_t lines_of(const std::filesystem::path& file) {
  const std::string text = read_file(file);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

Result caliber(const std::string& args) {
  return testing::run_shell(std::string(CALIBER_BINARY) + " " + args);
}

class ReportCommands : public ::testing::Test {
 protected:
  TempDir dir{"caliber-cli-report"};
  std::string a = (dir / "a").string();
  std::string b = (dir / "b").string();

  // Two real runs of one op on the host, 4 rows each, for a confirmation pass to re-run. Two runs
  // can give a row the same median to the nanosecond (SAME even with no minimum effect), so the
  // tests below count the rows the pass takes instead of assuming all of them.
  void measure_cpu_pair() {
    const std::string quick =
        "run --backend cpu --op cumsum --dtypes float32,int32 --warmup-ms 1 --rep-ms 3 "
        "--no-progress --out ";
    ASSERT_EQ(caliber(quick + a).exit_code, 0);
    ASSERT_EQ(caliber(quick + b).exit_code, 0);
  }

  void write_pair(const RunIdentity& ib, double b_scale) {
    write_run(a, test_identity(),
              {test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 1)),
               test_row("add", "pointwise", synthetic_samples(0.1, 0.01, 100, 2))});
    write_run(b, ib,
              {test_row("mm", "blas", synthetic_samples(1.0 * b_scale, 0.01, 100, 3)),
               test_row("add", "pointwise", synthetic_samples(0.1, 0.01, 100, 4))});
  }
};

TEST_F(ReportCommands, SummaryWritesCsvBesideTheRun) {
  write_pair(test_identity(), 1.0);
  Result r = caliber("summary " + a);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  CsvTable csv(parse_csv(read_file(dir / "a" / "summary.csv")));
  EXPECT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv.at(0, "timer_used"), "graph");
  EXPECT_NE(r.output.find("wrote"), std::string::npos);
}

TEST_F(ReportCommands, SummaryOfSeveralDirectoriesGoesWhereAsked) {
  write_pair(test_identity(), 1.0);
  std::filesystem::create_directories(dir / "old");
  write_file_atomic(dir / "old" / "run.log",
                    read_file(std::string(CALIBER_TEST_DATA) + "/flaggems_run.log"));
  std::string out = (dir / "all.csv").string();
  Result r = caliber("summary " + a + " " + (dir / "old").string() + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CsvTable(parse_csv(read_file(out))).size(), 2u + 14u);
}

TEST_F(ReportCommands, SummaryOfAMissingDirectoryExits2) {
  EXPECT_EQ(caliber("summary " + (dir / "nope").string()).exit_code, 2);
}

TEST_F(ReportCommands, CompareRefusesATimerMismatchWithExit2) {
  RunIdentity other = test_identity();
  other.timer = "direct";
  write_pair(other, 1.0);
  Result r = caliber("compare " + a + " " + b);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("timer: A \"graph\", B \"direct\""), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "b" / "compare.csv"));
}

TEST_F(ReportCommands, CompareRefusesALevelMismatchWithExit2) {
  RunIdentity other = test_identity();
  other.level = "comprehensive";
  write_pair(other, 1.0);
  Result r = caliber("compare " + a + " " + b);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("level"), std::string::npos) << r.output;
}

TEST_F(ReportCommands, AllowMismatchComparesAndRecordsTheField) {
  RunIdentity other = test_identity();
  other.level = "comprehensive";
  write_pair(other, 1.0);
  Result r = caliber("compare " + a + " " + b + " --allow-mismatch level");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  CsvTable csv(parse_csv(read_file(dir / "b" / "compare.csv")));
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv.at(0, "allowed_mismatch"), "level");
  EXPECT_NE(read_file(dir / "b" / "compare.json").find("\"field\": \"level\""), std::string::npos);
  EXPECT_NE(r.output.find("allowed by --allow-mismatch"), std::string::npos);
}

TEST_F(ReportCommands, FailOnSlowExits1OnlyWhenBIsSlower) {
  write_pair(test_identity(), 1.2);
  EXPECT_EQ(caliber("compare " + a + " " + b).exit_code, 0);
  Result slow = caliber("compare " + a + " " + b + " --fail-on-slow -o " + (dir / "out").string());
  EXPECT_EQ(slow.exit_code, 1) << slow.output;
  CsvTable csv(parse_csv(read_file(dir / "out" / "compare.csv")));
  EXPECT_EQ(csv.at(0, "verdict"), "SLOW");  // slowest first
  EXPECT_EQ(csv.at(0, "op"), "mm");
}

TEST_F(ReportCommands, FailOnSlowExits0WhenNothingGotSlower) {
  write_pair(test_identity(), 0.8);
  Result r = caliber("compare " + a + " " + b + " --fail-on-slow");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("FAST"), std::string::npos);
}

TEST_F(ReportCommands, BadVerdictFlagExits2) {
  write_pair(test_identity(), 1.0);
  EXPECT_EQ(caliber("compare " + a + " " + b + " --min-effect 3").exit_code, 2);
}

TEST_F(ReportCommands, ReportWritesOneSelfContainedHtmlFile) {
  write_pair(test_identity(), 0.8);
  std::string out = (dir / "report.html").string();
  Result r = caliber("report " + a + " --compare " + b + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::string html = read_file(out);
  EXPECT_NE(html.find("<svg class=\"chart verdicts\""), std::string::npos);
  EXPECT_NE(html.find("<table class=\"sortable\">"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

TEST_F(ReportCommands, BatchDirectoriesCompareOpByOp) {
  testing::write_sample_batch(dir / "batch_a", 1.0, 1);
  testing::write_sample_batch(dir / "batch_b", 1.0, 1000);
  Result r = caliber("compare " + (dir / "batch_a").string() + " " + (dir / "batch_b").string() +
                     " --fail-on-slow");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  CsvTable csv(parse_csv(read_file(dir / "batch_b" / "compare.csv")));
  EXPECT_EQ(csv.size(), 30u);  // 5 ops x 3 shapes x (baseline, candidate)
  Result summary = caliber("summary " + (dir / "batch_a").string());
  EXPECT_EQ(summary.exit_code, 0) << summary.output;
  EXPECT_NE(summary.output.find("ops dismissed: 1"), std::string::npos) << summary.output;
}

TEST_F(ReportCommands, ReportWithComparisonHonoursTheGate) {
  RunIdentity other = test_identity();
  other.timer = "direct";
  write_pair(other, 1.0);
  EXPECT_EQ(
      caliber("report " + a + " --compare " + b + " -o " + (dir / "r.html").string()).exit_code, 2);
}

TEST_F(ReportCommands, ConfirmRefusesRunsItCannotReRunBeforeAnyDeviceWork) {
  write_pair(test_identity(), 1.1);  // mm 10% slower in B: SLOW
  Result r = caliber("compare " + a + " " + b + " --confirm");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--confirm"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no command line"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "b" / "compare.csv"));
  RunIdentity other = test_identity();
  other.harness_version = "other";
  write_pair(other, 1.1);
  r = caliber("compare " + a + " " + b + " --confirm");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("one build"), std::string::npos) << r.output;
}

TEST_F(ReportCommands, ConfirmReMeasuresEveryRowNotSameOnTheCpuRoundByRound) {
  measure_cpu_pair();
  if (HasFatalFailure()) return;
  const std::filesystem::path out = dir / "out";
  // A minimum effect of nothing: a row of two CPU runs is SAME only where their medians tie.
  Result r = caliber("compare " + a + " " + b + " --confirm --confirm-rounds 2 --min-effect 0 -o " +
                     out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("confirmation pass:"), std::string::npos) << r.output;
  CsvTable csv(parse_csv(read_file(out / "compare.csv")));
  ASSERT_EQ(csv.size(), 4u);
  size_t taken = 0;
  for (size_t i = 0; i < csv.size(); ++i) {
    const std::string speedups = csv.at(i, "confirm_speedups");
    if (csv.at(i, "verdict_before_confirm").empty()) {
      // SAME in the screens: not re-measured.
      EXPECT_EQ(csv.at(i, "verdict"), "SAME") << i;
      EXPECT_EQ(speedups, "") << i;
      continue;
    }
    ++taken;
    EXPECT_EQ(std::count(speedups.begin(), speedups.end(), ';'), 1) << speedups;
  }
  ASSERT_GT(taken, 0u) << r.output;
  // Each re-run measured its one case (the shard that holds it), with A's flags.
  const auto rerun = out / "confirm" / "row0" / "round1-A";
  auto rows = read_results_jsonl((rerun / "results.jsonl").string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(read_identity((rerun / "run_identity.json").string()).command_line.find("--shard"),
            std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out / "confirm" / "row0" / "round2-B" / "results.jsonl"));
  EXPECT_NE(read_file(out / "compare.json").find("\"rounds\": 2"), std::string::npos);
}

TEST_F(ReportCommands, ConfirmStopsAtItsDeadlineWritesWhatItHasAndGoesOnFromTheJournal) {
  measure_cpu_pair();
  if (HasFatalFailure()) return;
  const std::filesystem::path out = dir / "out";
  const std::string command =
      "compare " + a + " " + b + " --confirm --confirm-rounds 2 --min-effect 0 -o " + out.string();
  // The rows the pass takes (not SAME in the screens), from a plain compare.
  ASSERT_EQ(caliber("compare " + a + " " + b + " --min-effect 0 -o " + (dir / "plain").string())
                .exit_code,
            0);
  CsvTable plain(parse_csv(read_file(dir / "plain" / "compare.csv")));
  size_t taken = 0;
  for (size_t i = 0; i < plain.size(); ++i) taken += plain.at(i, "verdict") != "SAME";
  ASSERT_GE(taken, 2u) << "fewer than two rows of the pair differ: the deadline cannot cut a pass";
  // A deadline no row fits in: the first row runs (nothing measured yet says it will not fit),
  // and the pass stops before the second.
  Result r = caliber(command + " --confirm-deadline-s 0.001");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("stopped (deadline) after 1 of " + std::to_string(taken)),
            std::string::npos)
      << r.output;
  CsvTable csv(parse_csv(read_file(out / "compare.csv")));
  size_t confirmed = 0;
  for (size_t i = 0; i < csv.size(); ++i) confirmed += !csv.at(i, "confirm_speedups").empty();
  EXPECT_EQ(confirmed, 1u);
  const std::string stopped = read_file(out / "compare.json");
  EXPECT_NE(stopped.find("\"complete\": false"), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("\"stopped\": \"deadline\""), std::string::npos) << stopped;
  const std::filesystem::path journal = out / "confirm" / "confirmations.jsonl";
  EXPECT_EQ(lines_of(journal), 1u);

  // The same command without the deadline takes the first row from the journal and measures the
  // rest.
  r = caliber(command);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("confirm 1/" + std::to_string(taken)), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(": from the journal"), std::string::npos) << r.output;
  CsvTable done(parse_csv(read_file(out / "compare.csv")));
  size_t measured = 0;
  for (size_t i = 0; i < done.size(); ++i) measured += !done.at(i, "confirm_speedups").empty();
  EXPECT_EQ(measured, taken);
  EXPECT_NE(read_file(out / "compare.json").find("\"complete\": true"), std::string::npos);
  EXPECT_EQ(lines_of(journal), taken);
  // The deadline belongs to the pass.
  EXPECT_EQ(caliber("compare " + a + " " + b + " --confirm-deadline-s 5").exit_code, 2);
}

}  // namespace
}  // namespace caliber
