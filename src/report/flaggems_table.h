#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result_row.h"
#include "core/row_status.h"

namespace caliber {

// The header and rows of one op x dtype table, laid out exactly as FlagGems' benchmark prints
// them, so grep scripts written for the Python harness keep working on run.log.
struct TableHeading {
  std::string op;
  std::string dtype;  // "float16"
  std::string mode;   // the timer
  std::string level;
};

std::string flaggems_table_title(const TableHeading& heading);
// Rows carry baseline latency; candidate latency and speedup where a candidate row is paired.
struct TableLine {
  RowStatus status = RowStatus::kSuccess;  // SUCCESS or FAILED
  std::optional<double> torch_ms{};
  std::optional<double> gems_ms{};
  std::optional<double> speedup{};
  std::optional<double> tflops{};
  std::string size_detail{};
  std::string error{};
  std::optional<double> peak_mib{};  // device memory peak of the baseline (terminal view only)
};

std::string flaggems_table(const TableHeading& heading, const std::vector<TableLine>& lines,
                           bool with_tflops);

// Pairs baseline and candidate rows of one op x dtype (same shape order) into table lines.
std::vector<TableLine> table_lines(const std::vector<ResultRow>& rows);

}  // namespace caliber
