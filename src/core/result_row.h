#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/activities_per_call.h"
#include "core/row_status.h"

namespace caliber {

// One measured case: op x shape x dtype x provider. One JSON object per line in
// results.jsonl; summary, compare and report read these without torch.
struct ResultRow {
  std::string op;
  std::string family;
  std::string dtype;                     // "float16"
  std::vector<std::vector<long>> shape;  // input shapes as resolved
  std::string shape_desc;                // "M, N, K" style description from the shape file
  std::string size_detail;               // what FlagGems prints in "Size Detail"
  std::string provider = "baseline";     // or the candidate spec
  RowStatus status = RowStatus::kSuccess;
  std::string error;
  // The caliber of this number.
  std::string timer_requested;
  std::string timer_used;
  std::string cache;
  std::string policy;
  int repeat = 1;
  int warmup_calls = 0;
  double warmup_ms = 0;
  std::vector<std::string> markers;  // fallback[phase=capture,repeat=1], throttled=3, ...
  int throttled_samples = 0;
  // Statistics over `samples_ms` (each sample is one call's latency, or a replay / N).
  std::vector<double> samples_ms;
  int sample_count = 0;
  double latency_ms = 0;  // by return_mode (median unless asked otherwise)
  double median_ms = 0;
  double mean_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double noise = 0;  // relative noise of the estimate
  std::vector<std::pair<double, double>> quantiles_ms;
  // `kernel` timer only (null otherwise): the device work of one call by kind, and the part of
  // the latency that was kernels (what ncu's gpu__time_duration sums), in microseconds.
  std::optional<ActivitiesPerCall> activities_per_call;
  std::optional<double> kernel_only_us;
  // --selftest-delay only: the device delay added per call (us) and the slowdown it caused.
  std::optional<double> selftest_delay_us;
  std::optional<double> selftest_slowdown;
  // Candidate rows carry the baseline they were interleaved with.
  std::optional<double> baseline_ms;
  std::optional<double> speedup;
  double gbps = 0;
  double tflops = 0;
  std::optional<double> pct_peak_bandwidth;
  std::optional<double> pct_peak_flops;
  long long peak_memory_bytes = 0;
  double wall_s = 0;  // the whole case: inputs, every provider's measurement, checks
  // Where the case's wall time went, in milliseconds (a screen's profile): building the inputs,
  // the baseline's measurement as a whole, and within it the warmup and the graph capture.
  double inputs_ms = 0;
  double measure_ms = 0;
  double capture_ms = 0;
  // Graph timer: graphs captured and sampled in turn, and the spread of their medians.
  int graph_captures = 0;
  double capture_spread = 0;
};

// The graph timer's marker for a call whose share of a replay is below what any device node takes:
// the call launched no device work (an allocation, a view). Written by the timer, read by compare.
inline constexpr std::string_view kNoDeviceWorkMarker = "no_device_work";

bool has_marker(const ResultRow& row, std::string_view marker);

// The number a row stands for: its median, or its latency where it recorded no median.
inline double headline_ms(const ResultRow& row) {
  return row.median_ms > 0 ? row.median_ms : row.latency_ms;
}

nlohmann::json to_json(const ResultRow& row);
ResultRow result_row_from_json(const nlohmann::json& json);
std::string to_jsonl_line(const ResultRow& row);
// Reads results.jsonl; a torn last line (a crash mid-write) is skipped, any other bad line is
// an error naming the file and line.
std::vector<ResultRow> read_results_jsonl(const std::string& path);

}  // namespace caliber
