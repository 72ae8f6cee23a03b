#include "report/summary.h"

#include <gtest/gtest.h>

#include "core/csv.h"
#include "core/error.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::TempDir;
using testing::test_identity;
using testing::test_row;
using testing::write_run;

CsvTable summary_of(const std::vector<std::string>& dirs) {
  std::vector<RunCollection> runs;
  for (const auto& d : dirs) runs.push_back(load_run_collection(d));
  return CsvTable(parse_csv(summary_csv(runs)));
}

size_t row_of(const CsvTable& t, const std::string& op, const std::string& provider) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t.at(i, "op") == op && t.at(i, "provider") == provider) return i;
  }
  throw std::runtime_error("no summary row " + op + " " + provider);
}

TEST(Summary, OneRecordPerResultsJsonlRowWithItsCaliber) {
  TempDir dir("caliber-summary");
  auto base = test_row("mm", "blas", {1.0, 1.1, 0.9, 1.0, 1.0});
  auto cand = test_row("mm", "blas", {0.5, 0.5, 0.5, 0.5, 0.5}, "python:flag_gems");
  cand.baseline_ms = 1.0;
  cand.speedup = 2.0;
  cand.tflops = 123.5;
  cand.timer_used = "direct";
  cand.markers = {"fallback[phase=capture,repeat=1]", "throttled=2"};
  cand.peak_memory_bytes = 4194304;
  write_run(dir / "run", test_identity(), {base, cand});
  auto t = summary_of({(dir / "run").string()});
  ASSERT_EQ(t.size(), 2u);
  size_t c = row_of(t, "mm", "python:flag_gems");
  EXPECT_EQ(t.at(c, "family"), "blas");
  EXPECT_EQ(t.at(c, "shape"), "[torch.Size([1024, 1024])]");
  EXPECT_EQ(t.at(c, "median_ms"), "0.5");
  EXPECT_EQ(t.at(c, "speedup"), "2");
  EXPECT_EQ(t.at(c, "tflops"), "123.5");
  EXPECT_EQ(t.at(c, "timer_used"), "direct");
  EXPECT_EQ(t.at(c, "sample_count"), "5");
  EXPECT_EQ(t.at(c, "peak_memory_bytes"), "4194304");
  EXPECT_EQ(t.at(c, "markers"), "fallback[phase=capture,repeat=1];throttled=2");
  EXPECT_EQ(t.at(row_of(t, "mm", "baseline"), "speedup"), "");
}

TEST(Summary, ReadsAFlagGemsWordedRunLog) {
  TempDir dir("caliber-summary-log");
  std::filesystem::create_directories(dir / "old");
  write_file_atomic(dir / "old" / "run.log",
                    read_file(std::string(CALIBER_TEST_DATA) + "/flaggems_run.log"));
  auto t = summary_of({(dir / "old").string()});
  EXPECT_EQ(t.size(), 14u);
  size_t mm = row_of(t, "mm", "gems");
  EXPECT_EQ(t.at(mm, "median_ms"), "0.20032");
  EXPECT_EQ(t.at(mm, "speedup"), "0.048");
  EXPECT_EQ(t.at(mm, "tflops"), "0.565");
  EXPECT_EQ(t.at(mm, "sample_count"), "0");
  EXPECT_NE(t.at(mm, "markers").find("source=run.log"), std::string::npos);
}

TEST(Summary, ResultsJsonlWinsOverRunLogInTheSameDirectory) {
  TempDir dir("caliber-summary-both");
  write_run(dir / "run", test_identity(), {test_row("mm", "blas", {1, 1, 1})});
  write_file_atomic(dir / "run" / "run.log",
                    read_file(std::string(CALIBER_TEST_DATA) + "/flaggems_run.log"));
  EXPECT_EQ(summary_of({(dir / "run").string()}).size(), 1u);
}

TEST(Summary, BatchListsDismissedOpsWithTheirReason) {
  TempDir dir("caliber-summary-batch");
  write_run(dir / "batch" / "ops" / "mm", test_identity(), {test_row("mm", "blas", {1, 1, 1})});
  write_file_atomic(dir / "batch" / "ops_status.csv",
                    "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,"
                    "wall_s,exit,signal,error\n"
                    "mm,ok,1,float16,,cuda,0,graph,3.2,0,,\n"
                    "unique,dismissed,0,,,cuda,0,,0,,,\"host sync inside, see dismiss list\"\n");
  auto t = summary_of({(dir / "batch").string()});
  ASSERT_EQ(t.size(), 2u);
  size_t u = row_of(t, "unique", "");
  EXPECT_EQ(t.at(u, "status"), "dismissed");
  EXPECT_EQ(t.at(u, "error"), "host sync inside, see dismiss list");
}

// An op whose all-dtypes run failed was run again dtype by dtype; those runs' rows are the op's,
// not the failed run's (on an H100, 17 of piece 1's ops).
TEST(Summary, AnOpsDtypeRerunsStandInForItsFailedRun) {
  TempDir dir("caliber-summary-reruns");
  const auto op = dir / "batch" / "ops" / "mm";
  ResultRow failed = test_row("mm", "blas", {});
  failed.status = RowStatus::kFailed;
  write_run(op, test_identity(), {failed, test_row("mm", "blas", {9, 9, 9})});
  for (const char* dtype : {"float32", "float16"}) {
    ResultRow row = test_row("mm", "blas", {1, 1, 1});
    row.dtype = dtype;
    write_run(op / "dtypes" / dtype, test_identity(), {row});
  }
  auto t = summary_of({(dir / "batch").string()});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.at(0, "dtype"), "float16");
  EXPECT_EQ(t.at(1, "dtype"), "float32");
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t.at(i, "median_ms"), "1");
    EXPECT_EQ(t.at(i, "source"), (op / "dtypes" / t.at(i, "dtype")).string());
  }
}

TEST(Summary, KernelRowsCarryTheirActivityCountsAndKernelOnlyTime) {
  TempDir dir("caliber-summary-kernel");
  ResultRow sort = test_row("sort", "sort", {0.0913});
  sort.timer_used = "kernel";
  ActivitiesPerCall activities;
  activities.kernels = 7;
  activities.memsets = 1;
  activities.kernel_us = 88.25;
  sort.activities_per_call = activities;
  sort.kernel_only_us = 88.25;
  write_run(dir / "run", test_identity(), {sort, test_row("mm", "blas", {1, 1, 1})});
  auto t = summary_of({(dir / "run").string()});
  size_t s = row_of(t, "sort", "baseline");
  EXPECT_EQ(t.at(s, "kernels_per_call"), "7");
  EXPECT_EQ(t.at(s, "memsets_per_call"), "1");
  EXPECT_EQ(t.at(s, "memcpys_per_call"), "0");
  EXPECT_EQ(t.at(s, "kernel_only_us"), "88.25");
  size_t m = row_of(t, "mm", "baseline");
  EXPECT_EQ(t.at(m, "kernels_per_call"), "");
  EXPECT_EQ(t.at(m, "kernel_only_us"), "");
}

TEST(Summary, SeveralDirectoriesAggregateWithTheirSource) {
  TempDir dir("caliber-summary-many");
  write_run(dir / "r1", test_identity(), {test_row("mm", "blas", {1, 1, 1})});
  write_run(dir / "r2", test_identity(), {test_row("add", "pointwise", {2, 2, 2})});
  auto t = summary_of({(dir / "r1").string(), (dir / "r2").string()});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.at(row_of(t, "add", "baseline"), "source"), (dir / "r2").string());
}

TEST(Summary, ADirectoryWithoutRunsIsAUsageError) {
  TempDir dir("caliber-summary-empty");
  try {
    load_run_collection(dir.path().string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("neither a run directory"), std::string::npos);
  }
}

}  // namespace
}  // namespace caliber
