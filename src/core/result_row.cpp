#include "core/result_row.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"

namespace caliber {

using nlohmann::json;

bool has_marker(const ResultRow& row, std::string_view marker) {
  return std::find(row.markers.begin(), row.markers.end(), marker) != row.markers.end();
}

json to_json(const ResultRow& r) {
  json j = {{"op", r.op},
            {"family", r.family},
            {"dtype", r.dtype},
            {"shape", r.shape},
            {"shape_desc", r.shape_desc},
            {"size_detail", r.size_detail},
            {"provider", r.provider},
            {"status", to_string(r.status)},
            {"error", r.error},
            {"timer_requested", r.timer_requested},
            {"timer_used", r.timer_used},
            {"cache", r.cache},
            {"policy", r.policy},
            {"repeat", r.repeat},
            {"warmup_calls", r.warmup_calls},
            {"warmup_ms", r.warmup_ms},
            {"markers", r.markers},
            {"throttled_samples", r.throttled_samples},
            {"samples_ms", r.samples_ms},
            {"sample_count", r.sample_count},
            {"latency_ms", r.latency_ms},
            {"median_ms", r.median_ms},
            {"mean_ms", r.mean_ms},
            {"min_ms", r.min_ms},
            {"max_ms", r.max_ms},
            {"noise", r.noise},
            {"quantiles_ms", r.quantiles_ms},
            {"activities_per_call",
             r.activities_per_call ? to_json(*r.activities_per_call) : json(nullptr)},
            {"kernel_only_us", r.kernel_only_us ? json(*r.kernel_only_us) : json(nullptr)},
            {"baseline_ms", r.baseline_ms ? json(*r.baseline_ms) : json(nullptr)},
            {"speedup", r.speedup ? json(*r.speedup) : json(nullptr)},
            {"gbps", r.gbps},
            {"tflops", r.tflops},
            {"pct_peak_bandwidth", r.pct_peak_bandwidth ? json(*r.pct_peak_bandwidth) : json()},
            {"pct_peak_flops", r.pct_peak_flops ? json(*r.pct_peak_flops) : json()},
            {"peak_memory_bytes", r.peak_memory_bytes},
            {"wall_s", r.wall_s}};
  j["phases_ms"] = {{"inputs", r.inputs_ms},
                    {"warmup", r.warmup_ms},
                    {"capture", r.capture_ms},
                    {"measure", r.measure_ms}};
  // Only a selftest run has these; other rows stay as they were.
  if (r.graph_captures > 0) {
    j["graph_captures"] = r.graph_captures;
    j["capture_spread"] = r.capture_spread;
  }
  if (r.selftest_delay_us) j["selftest_delay_us"] = *r.selftest_delay_us;
  if (r.selftest_slowdown) j["selftest_slowdown"] = *r.selftest_slowdown;
  return j;
}

namespace {

template <typename T>
void get_if(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

template <typename T>
void get_optional(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

}  // namespace

ResultRow result_row_from_json(const json& j) {
  ResultRow r;
  get_if(j, "op", r.op);
  get_if(j, "family", r.family);
  get_if(j, "dtype", r.dtype);
  get_if(j, "shape", r.shape);
  get_if(j, "shape_desc", r.shape_desc);
  get_if(j, "size_detail", r.size_detail);
  get_if(j, "provider", r.provider);
  std::string status;
  get_if(j, "status", status);
  if (!status.empty()) {
    auto parsed = row_status_from_string(status);
    if (!parsed) {
      throw_usage("'{}' is not a row status (accepted: SUCCESS, FAILED, NOT_COVERED, SKIPPED)",
                  status);
    }
    r.status = *parsed;
  }
  get_if(j, "error", r.error);
  get_if(j, "timer_requested", r.timer_requested);
  get_if(j, "timer_used", r.timer_used);
  get_if(j, "cache", r.cache);
  get_if(j, "policy", r.policy);
  get_if(j, "repeat", r.repeat);
  get_if(j, "warmup_calls", r.warmup_calls);
  get_if(j, "warmup_ms", r.warmup_ms);
  get_if(j, "markers", r.markers);
  get_if(j, "throttled_samples", r.throttled_samples);
  get_if(j, "samples_ms", r.samples_ms);
  get_if(j, "sample_count", r.sample_count);
  get_if(j, "latency_ms", r.latency_ms);
  get_if(j, "median_ms", r.median_ms);
  get_if(j, "mean_ms", r.mean_ms);
  get_if(j, "min_ms", r.min_ms);
  get_if(j, "max_ms", r.max_ms);
  get_if(j, "noise", r.noise);
  get_if(j, "quantiles_ms", r.quantiles_ms);
  if (auto it = j.find("activities_per_call"); it != j.end() && it->is_object()) {
    r.activities_per_call = activities_from_json(*it);
  }
  get_optional(j, "kernel_only_us", r.kernel_only_us);
  get_optional(j, "selftest_delay_us", r.selftest_delay_us);
  if (auto it = j.find("phases_ms"); it != j.end() && it->is_object()) {
    r.inputs_ms = it->value("inputs", 0.0);
    r.capture_ms = it->value("capture", 0.0);
    r.measure_ms = it->value("measure", 0.0);
  }
  get_optional(j, "selftest_slowdown", r.selftest_slowdown);
  get_if(j, "graph_captures", r.graph_captures);
  get_if(j, "capture_spread", r.capture_spread);
  get_optional(j, "baseline_ms", r.baseline_ms);
  get_optional(j, "speedup", r.speedup);
  get_if(j, "gbps", r.gbps);
  get_if(j, "tflops", r.tflops);
  get_optional(j, "pct_peak_bandwidth", r.pct_peak_bandwidth);
  get_optional(j, "pct_peak_flops", r.pct_peak_flops);
  get_if(j, "peak_memory_bytes", r.peak_memory_bytes);
  get_if(j, "wall_s", r.wall_s);
  return r;
}

std::string to_jsonl_line(const ResultRow& row) { return to_json(row).dump(); }

std::vector<ResultRow> read_results_jsonl(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  std::vector<ResultRow> rows;
  for (size_t i = 0; i < lines.size(); ++i) {
    try {
      rows.push_back(result_row_from_json(json::parse(lines[i])));
    } catch (const json::exception& e) {
      if (i + 1 == lines.size()) break;  // torn final line from an interrupted writer
      throw_usage("{}:{}: not a result row ({})", path, i + 1, e.what());
    }
  }
  return rows;
}

}  // namespace caliber
