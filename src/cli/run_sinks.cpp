#include "cli/run_sinks.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/flaggems_table.h"
#include "report/terminal_table.h"

namespace caliber {
namespace {

TableHeading heading_of(const DtypeRows& table, const std::string& cache) {
  return TableHeading{table.op, table.dtype, table.timer, table.level, cache};
}

std::vector<std::string> distinct_markers(const std::vector<ResultRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) {
    for (const auto& m : r.markers) {
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
  }
  return out;
}

}  // namespace

void RunLogSink::do_begin(const RunIdentity& identity, const std::string& banner) {
  cache_ = identity.cache;
  dir_.start_log(banner);
}

void RunLogSink::do_dtype_done(const DtypeRows& table) {
  bool with_tflops = std::any_of(table.rows.begin(), table.rows.end(),
                                 [](const ResultRow& r) { return r.tflops > 0; });
  dir_.append_log(flaggems_table(heading_of(table, cache_), table_lines(table.rows), with_tflops));
}

void RunLogSink::do_end(const RunIdentity&, const RunEnd& end) { dir_.append_log(end.text); }

void TerminalSink::do_begin(const RunIdentity&, const std::string& banner) {
  fmt::print(out_, "{}", banner);
  std::fflush(out_);
}

void TerminalSink::do_dtype_done(const DtypeRows& table) {
  bar_.clear();
  fmt::print(out_, "\n{}",
             terminal_table(heading_of(table, ""), table_lines(table.rows),
                            distinct_markers(table.rows), {.color = color_}));
  std::fflush(out_);
}

void TerminalSink::do_end(const RunIdentity&, const RunEnd& end) {
  fmt::print(out_, "\n{}", end.text);
  std::fflush(out_);
}

}  // namespace caliber
