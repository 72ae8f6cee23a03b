#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/record_format.h"
#include "core/result_row.h"

namespace caliber {

// FlagGems' benchmark records (`--record log`, `--record json`), written as FlagGems writes them
// (benchmark/conftest.py and consts.py at the pinned commit) so that its scripts, such as
// benchmark/summary_for_plot.py, read caliber's results:
//
//   log:  one line per op x dtype, `[INFO] ` + json.dumps(asdict(BenchmarkResult)), after the
//         line `[INFO] Benchmark record logger enabled`;
//   json: benchmark_result.json, {op: {"details": [BenchmarkResult...], "result": "passed",
//         "test_case": ..., "reason": null}}, json.dump(indent=2).
//
// Latencies are in ms, as FlagGems writes them; `shape_detail` is FlagGems' record_shapes() of
// the inputs (tensors as their sizes, scalars as they are).

inline constexpr const char* kRecordLogName = "record.log";
inline constexpr const char* kRecordJsonName = "benchmark_result.json";
std::string record_file_name(RecordFormat format);

// FlagGems' BenchmarkMetrics fields a user may ask for (its ALL_AVAILABLE_METRICS).
const std::vector<std::string>& flaggems_metric_names();
// "latency,tflops" -> {"latency", "tflops"}; a usage Error naming `label` for an unknown name.
std::vector<std::string> parse_flaggems_metrics(const std::string& label, const std::string& text);

// "[torch.Size([64, 64]), 1]" -> [[64, 64], 1]. Text that is not a Python literal stays a
// string.
nlohmann::ordered_json shape_detail_json(std::string_view size_detail);

// json.dumps() with Python's default separators (", ", ": "), ASCII escapes and float repr.
std::string python_json_dumps(const nlohmann::ordered_json& value);

struct RecordContext {
  std::string op;
  std::string mode;   // FlagGems' mode name (flaggems_mode_name of the timer)
  std::string level;  // core, comprehensive
  // Fields to fill (FlagGems' --metrics); empty: latency_base, latency, speedup and tflops
  // where the op has a FLOP model.
  std::vector<std::string> metrics;
};

// One BenchmarkResult per dtype, in the order of the rows: a baseline row and its candidate row
// make one metric entry (latency_base, latency, speedup); a FAILED row sets error_msg. A
// candidate that does not cover the op leaves latency and speedup null, never 1.0.
std::vector<nlohmann::ordered_json> flaggems_results(const std::vector<ResultRow>& rows,
                                                     const RecordContext& context);

std::string record_log_text(const std::vector<nlohmann::ordered_json>& results);

// One op's entry of benchmark_result.json. `outcome`: passed, failed or skipped.
nlohmann::ordered_json benchmark_result_entry(const std::vector<nlohmann::ordered_json>& results,
                                              const std::string& outcome,
                                              const std::string& test_case,
                                              const std::string& reason);
std::string benchmark_result_text(const nlohmann::ordered_json& by_op);

// Writes `run_dir`'s record from its results.jsonl (nothing for RecordFormat::kNone).
void write_run_record(const std::filesystem::path& run_dir, RecordFormat format,
                      const RecordContext& context, const std::string& test_case);

// One op of a batch for the merged record: where its runs wrote, and how it ended.
struct RecordedOp {
  std::string op;
  std::vector<std::filesystem::path> run_dirs;  // the op's run directory, or its dtype reruns
  std::string outcome;                          // passed, failed, skipped
  std::string reason;
};

// The batch's record: the ops' records in order, one file as one FlagGems invocation writes
// it. An op whose run left no record (a crash, a timeout) appears in the json with its outcome
// and reason and no details, and not at all in the log, as in FlagGems.
void write_batch_record(const std::filesystem::path& batch_dir, RecordFormat format,
                        const std::vector<RecordedOp>& ops);

}  // namespace caliber
