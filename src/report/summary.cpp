#include "report/summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/csv.h"
#include "core/stats.h"
#include "report/geomean.h"
#include "report/number_format.h"
#include "report/text_table.h"

namespace caliber {

namespace {

// Empty for rows of timers other than `kernel`, which count no activities.
std::string count_or_empty(const std::optional<ActivitiesPerCall>& a,
                           int ActivitiesPerCall::*kind) {
  return a ? std::to_string((*a).*kind) : "";
}

std::vector<std::string> record_of(const CollectedRow& collected, const RunCollection& run) {
  const ResultRow& r = collected.row;
  int samples = r.sample_count > 0 ? r.sample_count : static_cast<int>(r.samples_ms.size());
  return {run.sources[collected.source].path,
          r.op,
          r.family,
          r.dtype,
          shape_label(r),
          r.shape_desc,
          r.provider,
          to_string(r.status),
          r.timer_requested,
          r.timer_used,
          r.cache,
          r.policy,
          std::to_string(r.repeat),
          std::to_string(samples),
          csv_number(r.latency_ms),
          csv_number(r.median_ms),
          csv_number(r.mean_ms),
          csv_number(r.min_ms),
          csv_number(r.max_ms),
          csv_number(r.noise),
          csv_number(r.baseline_ms),
          csv_number(r.speedup),
          csv_number(r.gbps),
          csv_number(r.tflops),
          csv_number(r.pct_peak_bandwidth),
          csv_number(r.pct_peak_flops),
          std::to_string(r.peak_memory_bytes),
          std::to_string(r.throttled_samples),
          count_or_empty(r.activities_per_call, &ActivitiesPerCall::kernels),
          count_or_empty(r.activities_per_call, &ActivitiesPerCall::memsets),
          count_or_empty(r.activities_per_call, &ActivitiesPerCall::memcpys),
          csv_number(r.kernel_only_us),
          fmt::format("{}", fmt::join(r.markers, ";")),
          r.error};
}

void set_field(std::vector<std::string>& record, std::string_view column, std::string value) {
  const auto& columns = summary_columns();
  record[static_cast<size_t>(std::find(columns.begin(), columns.end(), column) - columns.begin())] =
      std::move(value);
}

}  // namespace

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> columns = {"source",
                                                   "op",
                                                   "family",
                                                   "dtype",
                                                   "shape",
                                                   "shape_desc",
                                                   "provider",
                                                   "status",
                                                   "timer_requested",
                                                   "timer_used",
                                                   "cache",
                                                   "policy",
                                                   "repeat",
                                                   "sample_count",
                                                   "latency_ms",
                                                   "median_ms",
                                                   "mean_ms",
                                                   "min_ms",
                                                   "max_ms",
                                                   "noise",
                                                   "baseline_ms",
                                                   "speedup",
                                                   "gbps",
                                                   "tflops",
                                                   "pct_peak_bandwidth",
                                                   "pct_peak_flops",
                                                   "peak_memory_bytes",
                                                   "throttled_samples",
                                                   "kernels_per_call",
                                                   "memsets_per_call",
                                                   "memcpys_per_call",
                                                   "kernel_only_us",
                                                   "markers",
                                                   "error"};
  return columns;
}

std::vector<std::vector<std::string>> summary_records(const std::vector<RunCollection>& runs) {
  std::vector<std::vector<std::string>> records;
  for (const auto& run : runs) {
    std::set<std::string> ops_with_rows;
    for (const auto& row : run.rows) {
      records.push_back(record_of(row, run));
      ops_with_rows.insert(row.row.op);
    }
    for (const auto& s : run.op_statuses) {
      if (s.state == OpState::kOk || ops_with_rows.count(s.op)) continue;
      std::vector<std::string> record(summary_columns().size());
      set_field(record, "source", run.root);
      set_field(record, "op", s.op);
      set_field(record, "status", to_string(s.state));
      set_field(record, "timer_used", s.timer_used);
      set_field(record, "error", s.error);
      records.push_back(std::move(record));
    }
  }
  return records;
}

std::string summary_csv(const std::vector<RunCollection>& runs) {
  std::string text = csv_line(summary_columns());
  for (const auto& record : summary_records(runs)) text += csv_line(record);
  return text;
}

std::string summary_overview(const std::vector<RunCollection>& runs, bool color) {
  struct Group {
    size_t rows = 0;
    size_t failed = 0;
    std::vector<double> speedups;
    std::vector<double> latencies;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  std::map<std::string, size_t> op_statuses;
  for (const auto& run : runs) {
    for (const auto& c : run.rows) {
      const ResultRow& r = c.row;
      Group& g = groups[{r.family.empty() ? "(unknown)" : r.family, r.provider}];
      ++g.rows;
      if (r.status != RowStatus::kSuccess) {
        ++g.failed;
        continue;
      }
      if (r.speedup) g.speedups.push_back(*r.speedup);
      g.latencies.push_back(r.median_ms);
    }
    for (const auto& s : run.op_statuses) {
      if (s.state != OpState::kOk) ++op_statuses[to_string(s.state)];
    }
  }
  TextTable table({"family", "provider", "rows", "not ok", "geomean speedup", "median ms"});
  for (const auto& [key, g] : groups) {
    std::optional<double> median_ms;
    if (!g.latencies.empty()) median_ms = median(g.latencies);
    table.add_row({key.first, key.second, std::to_string(g.rows), std::to_string(g.failed),
                   human_number(geometric_mean(g.speedups)), human_number(median_ms)},
                  g.failed > 0 ? TextTable::Tint::kYellow : TextTable::Tint::kNone);
  }
  std::string out = table.render(color);
  for (const auto& [status, count] : op_statuses) {
    out += fmt::format("ops {}: {}\n", status, count);
  }
  return out;
}

}  // namespace caliber
