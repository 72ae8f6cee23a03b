#include "core/flaggems_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"

namespace caliber {
namespace {

using ojson = nlohmann::ordered_json;

const std::filesystem::path kRecords =
    std::filesystem::path(CALIBER_SHARED_DIR) / "reference/flaggems/records";

std::vector<std::string> sample_log_lines() {
  std::ifstream in(kRecords / "record_log_mm_add.log");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

ResultRow row(const std::string& provider, const std::string& dtype, const std::string& detail,
              double ms) {
  ResultRow r;
  r.op = "add";
  r.dtype = dtype;
  r.size_detail = detail;
  r.provider = provider;
  r.latency_ms = ms;
  return r;
}

TEST(ShapeDetailJson, TensorsBecomeTheirSizesAndScalarsStay) {
  EXPECT_EQ(shape_detail_json("[torch.Size([64, 64]), torch.Size([64, 64])]").dump(),
            "[[64,64],[64,64]]");
  EXPECT_EQ(shape_detail_json("[torch.Size([1024]), 1, 0.5, [2, 3]]").dump(),
            "[[1024],1,0.5,[2,3]]");
  EXPECT_EQ(shape_detail_json("[torch.Size([])]").dump(), "[[]]");
}

TEST(ShapeDetailJson, ArgsAndKwargsAsFlagGemsRecordsThem) {
  // FlagGems' record_shapes() returns (args, kwargs) when both exist; mm_out in the sample.
  EXPECT_EQ(shape_detail_json("([torch.Size([384, 384]), torch.Size([384, 384])], "
                              "{'out': torch.Size([384, 384])})")
                .dump(),
            R"([[[384,384],[384,384]],{"out":[384,384]}])");
  EXPECT_EQ(shape_detail_json("[torch.Size([4]), torch.float16, True, None]").dump(),
            R"([[4],"torch.float16",true,null])");
}

TEST(ShapeDetailJson, TextThatIsNoLiteralStaysAString) {
  EXPECT_EQ(shape_detail_json("[torch.Size([4]").dump(), R"("[torch.Size([4]")");
}

TEST(PythonJsonDumps, RewritesFlagGemsOwnLogLinesByteForByte) {
  auto lines = sample_log_lines();
  ASSERT_GE(lines.size(), 3u) << "shared reference missing: " << kRecords;
  int checked = 0;
  for (const auto& line : lines) {
    if (!line.starts_with("[INFO] {")) continue;
    std::string json = line.substr(7);
    EXPECT_EQ(python_json_dumps(ojson::parse(json)), json);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(PythonJsonDumps, WritesNonFiniteNumbersAsPythonDoes) {
  ojson v = ojson::array({std::numeric_limits<double>::infinity(), 1e-05, 2.0});
  EXPECT_EQ(python_json_dumps(v), "[Infinity, 1e-05, 2.0]");
}

TEST(FlagGemsResults, PairsBaselineAndCandidateIntoOneMetricPerShape) {
  ResultRow cand = row("python:flag_gems", "float16", "[torch.Size([64, 64])]", 0.5);
  cand.speedup = 2.0;
  cand.tflops = 1.5;
  std::vector<ResultRow> rows = {row("baseline", "float16", "[torch.Size([64, 64])]", 1.0), cand,
                                 row("baseline", "float32", "[torch.Size([64, 64])]", 3.0)};
  auto results = flaggems_results(rows, {"add", "kernel", "core", {}});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["op_name"], "add");
  EXPECT_EQ(results[0]["dtype"], "torch.float16");
  EXPECT_EQ(results[0]["mode"], "kernel");
  EXPECT_EQ(results[0]["level"], "core");
  ASSERT_EQ(results[0]["result"].size(), 1u);
  const ojson& m = results[0]["result"][0];
  EXPECT_EQ(m["shape_detail"].dump(), "[[64,64]]");
  EXPECT_EQ(m["latency_base"], 1.0);
  EXPECT_EQ(m["latency"], 0.5);
  EXPECT_EQ(m["speedup"], 2.0);
  EXPECT_EQ(m["tflops"], 1.5);
  EXPECT_TRUE(m["error_msg"].is_null());
  // No candidate row: no latency and no speedup (never 1.0).
  const ojson& alone = results[1]["result"][0];
  EXPECT_EQ(alone["latency_base"], 3.0);
  EXPECT_TRUE(alone["latency"].is_null());
  EXPECT_TRUE(alone["speedup"].is_null());
}

TEST(FlagGemsResults, KeysInFlagGemsOrderAsInItsOwnLog) {
  auto lines = sample_log_lines();
  ASSERT_GE(lines.size(), 2u);
  ojson sample = ojson::parse(lines[1].substr(7));
  auto results = flaggems_results({row("baseline", "float16", "[torch.Size([4])]", 1.0)},
                                  {"mm", "kernel", "core", {}});
  ASSERT_EQ(results.size(), 1u);
  std::vector<std::string> ours, theirs;
  for (const auto& [k, v] : results[0].items()) ours.push_back(k);
  for (const auto& [k, v] : sample.items()) theirs.push_back(k);
  EXPECT_EQ(ours, theirs);
  ours.clear();
  theirs.clear();
  for (const auto& [k, v] : results[0]["result"][0].items()) ours.push_back(k);
  for (const auto& [k, v] : sample["result"][0].items()) theirs.push_back(k);
  EXPECT_EQ(ours, theirs);
}

TEST(FlagGemsResults, FailedAndUncoveredRows) {
  ResultRow failed = row("baseline", "float16", "[torch.Size([8])]", 0);
  failed.status = RowStatus::kFailed;
  failed.error = "out of memory";
  ResultRow uncovered = row("python:flag_gems", "float16", "[torch.Size([8])]", 0);
  uncovered.status = RowStatus::kNotCovered;
  auto results = flaggems_results({failed, uncovered}, {"add", "kernel", "core", {}});
  const ojson& m = results[0]["result"][0];
  EXPECT_EQ(m["error_msg"], "out of memory");
  EXPECT_TRUE(m["latency_base"].is_null());
  EXPECT_TRUE(m["latency"].is_null());
}

TEST(FlagGemsResults, MetricsChooseTheFilledFields) {
  ResultRow base = row("baseline", "float16", "[torch.Size([8])]", 1.0);
  base.gbps = 10;
  ResultRow cand = row("python:x", "float16", "[torch.Size([8])]", 0.5);
  cand.gbps = 20;
  cand.speedup = 2;
  auto results = flaggems_results({base, cand}, {"add", "kernel", "core", {"latency", "gbps"}});
  const ojson& m = results[0]["result"][0];
  EXPECT_EQ(m["latency"], 0.5);
  EXPECT_EQ(m["gbps"], 20.0);
  EXPECT_TRUE(m["latency_base"].is_null());
  EXPECT_TRUE(m["speedup"].is_null());
  EXPECT_TRUE(m["gbps_base"].is_null());
}

TEST(FlagGemsMetrics, UnknownMetricIsAUsageErrorNamingIt) {
  EXPECT_EQ(parse_flaggems_metrics("--metrics", "latency,tflops,latency"),
            (std::vector<std::string>{"latency", "tflops"}));
  try {
    parse_flaggems_metrics("--metrics", "latency,speed");
    FAIL() << "accepted an unknown metric";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'speed'"));
  }
}

TEST(BenchmarkResultText, LaysOutAsFlagGemsJsonDump) {
  std::string sample = read_file(kRecords / "benchmark_result_add_cudagraph.json");
  ojson parsed = ojson::parse(sample);
  ojson rebuilt = ojson::object();
  for (const auto& [op, entry] : parsed.items()) {
    std::vector<ojson> details(entry["details"].begin(), entry["details"].end());
    rebuilt[op] = benchmark_result_entry(details, entry["result"], entry["test_case"], "");
  }
  EXPECT_EQ(benchmark_result_text(rebuilt), sample);
}

TEST(RecordLogText, StartsWithFlagGemsLoggerLine) {
  auto lines = sample_log_lines();
  ASSERT_FALSE(lines.empty());
  std::string text = record_log_text({});
  EXPECT_EQ(text, lines[0] + "\n");
}

class BatchRecord : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("caliber-record-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  void write_run(const std::string& op, RecordFormat format) {
    std::filesystem::path dir = root_ / "ops" / op;
    std::filesystem::create_directories(dir);
    ResultRow base = row("baseline", "float32", "[torch.Size([8])]", 1.0);
    base.op = op;
    std::ofstream(dir / "results.jsonl") << to_jsonl_line(base);
    write_run_record(dir, format, {op, "operator", "core", {}}, op);
  }

  std::filesystem::path root_;
};

TEST_F(BatchRecord, LogConcatenatesTheOpsRecordsUnderOneLoggerLine) {
  write_run("add", RecordFormat::kLog);
  write_run("mm", RecordFormat::kLog);
  write_batch_record(root_, RecordFormat::kLog,
                     {{"add", {root_ / "ops/add"}, "passed", ""},
                      {"mm", {root_ / "ops/mm"}, "passed", ""},
                      {"sort", {root_ / "ops/sort"}, "failed", "crashed"}});
  std::istringstream in(read_file(root_ / kRecordLogName));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "[INFO] Benchmark record logger enabled");
  EXPECT_EQ(ojson::parse(lines[1].substr(7))["op_name"], "add");
  EXPECT_EQ(ojson::parse(lines[2].substr(7))["op_name"], "mm");
}

TEST_F(BatchRecord, JsonKeepsEveryOpWithItsOutcome) {
  write_run("add", RecordFormat::kJson);
  write_batch_record(root_, RecordFormat::kJson,
                     {{"add", {root_ / "ops/add"}, "passed", ""},
                      {"sort", {root_ / "ops/sort"}, "failed", "crashed"}});
  ojson merged = ojson::parse(read_file(root_ / kRecordJsonName));
  EXPECT_EQ(merged["add"]["result"], "passed");
  EXPECT_EQ(merged["add"]["details"].size(), 1u);
  EXPECT_EQ(merged["sort"]["result"], "failed");
  EXPECT_EQ(merged["sort"]["reason"], "crashed");
  EXPECT_TRUE(merged["sort"]["details"].empty());
}

}  // namespace
}  // namespace caliber
