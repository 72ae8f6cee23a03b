#include "report/flaggems_table.h"

#include <fmt/format.h>

#include <map>

#include "core/process_memory.h"

namespace caliber {
namespace {

std::string number_or_na(const std::optional<double>& value, int precision) {
  return value ? fmt::format("{:.{}f}", *value, precision) : "N/A";
}

}  // namespace

std::string flaggems_table_title(const TableHeading& h) {
  return fmt::format("Operator: {}  Performance Test (dtype=torch.{}, mode={},level={})", h.op,
                     h.dtype, h.mode, h.level);
}

std::string flaggems_table(const TableHeading& heading, const std::vector<TableLine>& lines,
                           bool with_tflops) {
  std::string columns = fmt::format("{:<10} {:>20} {:>20} {:>20}", "Status", "Torch Latency (ms)",
                                    "Gems Latency (ms)", "Gems Speedup");
  if (with_tflops) columns += fmt::format(" {:>20}", "TFLOPS");
  columns += fmt::format(" {:>20}", "Size Detail");
  std::string out = "\n" + flaggems_table_title(heading) + "\n" + columns + "\n" +
                    std::string(columns.size() + 1, '-') + "\n";
  for (const auto& line : lines) {
    out += fmt::format("{:<10}{:>20}{:>20}{:>20}", to_string(line.status),
                       number_or_na(line.torch_ms, 6), number_or_na(line.gems_ms, 6),
                       number_or_na(line.speedup, 3));
    if (with_tflops) out += fmt::format("{:>20}", number_or_na(line.tflops, 3));
    out += fmt::format("          {}", line.size_detail);
    if (!line.error.empty()) out += fmt::format("  error: {}", line.error);
    out += "\n";
  }
  return out;
}

std::vector<TableLine> table_lines(const std::vector<ResultRow>& rows) {
  std::vector<TableLine> lines;
  std::map<std::string, size_t> by_shape;  // size detail -> line index
  for (const auto& row : rows) {
    bool baseline = row.provider == "baseline";
    auto it = by_shape.find(row.size_detail);
    if (it == by_shape.end()) {
      it = by_shape.emplace(row.size_detail, lines.size()).first;
      lines.push_back({.status = RowStatus::kSuccess, .size_detail = row.size_detail});
    }
    TableLine& line = lines[it->second];
    if (row.status == RowStatus::kFailed) {
      line.status = RowStatus::kFailed;
      if (!row.error.empty()) line.error = row.error;
    }
    if (row.status != RowStatus::kSuccess) continue;
    if (baseline) {
      line.torch_ms = row.latency_ms;
      if (row.peak_memory_bytes > 0) line.peak_mib = row.peak_memory_bytes / kMiB;
      if (!line.gems_ms && row.tflops > 0) line.tflops = row.tflops;
    } else {
      line.gems_ms = row.latency_ms;
      if (row.speedup) line.speedup = row.speedup;
      if (row.tflops > 0) line.tflops = row.tflops;
    }
  }
  return lines;
}

}  // namespace caliber
