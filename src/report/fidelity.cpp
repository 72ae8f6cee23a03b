#include "report/fidelity.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "report/flaggems_log.h"

namespace caliber {

const char* to_string(FidelityStatus status) {
  switch (status) {
    case FidelityStatus::kSame:
      return "same";
    case FidelityStatus::kDifferent:
      return "different";
    case FidelityStatus::kUnmatched:
      return "unmatched";
  }
  return "unmatched";
}

namespace {

std::string level_of(const ResultRow& row) {
  for (const auto& m : row.markers) {
    if (m.starts_with("level=")) return m.substr(6);
  }
  return "core";
}

}  // namespace

std::vector<FlaggemsTable> flaggems_tables(std::string_view text, const std::string& source) {
  // One parse per title, so that a table printed twice (or two tests under one op name) stays
  // two tables: the parser's rows keep no table boundaries.
  std::vector<size_t> starts;
  for (size_t at = text.find("Operator:"); at != std::string_view::npos;
       at = text.find("Operator:", at + 1)) {
    starts.push_back(at);
  }
  std::vector<FlaggemsTable> tables;
  for (size_t k = 0; k < starts.size(); ++k) {
    size_t end = k + 1 < starts.size() ? starts[k + 1] : text.size();
    std::vector<ResultRow> rows = parse_flaggems_log(text.substr(starts[k], end - starts[k]));
    // Each printed line gives a baseline row and a candidate row with the same detail.
    std::erase_if(rows, [](const ResultRow& r) { return r.provider != ResultRow{}.provider; });
    if (rows.empty()) continue;
    FlaggemsTable table{source, rows.front().op, rows.front().dtype, level_of(rows.front()), {}};
    for (const auto& row : rows) table.details.push_back(row.size_detail);
    tables.push_back(std::move(table));
  }
  return tables;
}

std::string device_neutral(std::string_view detail) {
  static constexpr std::string_view kKey = "'device': '";
  std::string out;
  size_t from = 0;
  for (size_t at = detail.find(kKey); at != std::string_view::npos; at = detail.find(kKey, from)) {
    const size_t value = at + kKey.size();
    const size_t close = detail.find('\'', value);
    if (close == std::string_view::npos) break;
    out.append(detail.substr(from, at - from)).append("'device': <device>");
    from = close + 1;
  }
  out.append(detail.substr(from));
  return out;
}

FidelityReport check_fidelity(const std::vector<FlaggemsTable>& tables,
                              const CaliberCasesFn& caliber) {
  FidelityReport report;
  for (const auto& table : tables) {
    CaliberCases ours = caliber(table);
    std::vector<std::string> ours_neutral;
    for (const auto& d : ours.details) ours_neutral.push_back(device_neutral(d));
    std::vector<bool> used(ours.details.size(), false);
    for (size_t i = 0; i < table.details.size(); ++i) {
      FidelityCase c;
      c.table = &table;
      c.index = i;
      if (!ours.matched) {
        c.status = FidelityStatus::kUnmatched;
        c.why = ours.why;
        ++report.unmatched;
        report.cases.push_back(std::move(c));
        continue;
      }
      if (i < ours.details.size()) c.caliber = ours.details[i];
      c.status = FidelityStatus::kDifferent;
      const std::string theirs = device_neutral(table.details[i]);
      for (size_t j = 0; j < ours.details.size(); ++j) {
        if (!used[j] && ours_neutral[j] == theirs) {
          used[j] = true;
          c.status = FidelityStatus::kSame;
          c.caliber = ours.details[j];
          break;
        }
      }
      ++(c.status == FidelityStatus::kSame ? report.same : report.different);
      report.cases.push_back(std::move(c));
    }
    for (size_t j = 0; j < ours.details.size(); ++j) {
      if (!used[j] && ours.matched) {
        report.extra.push_back(fmt::format("{} {}: {}", ours.op, table.dtype, ours.details[j]));
      }
    }
  }
  return report;
}

std::string fidelity_summary(const FidelityReport& r) {
  return fmt::format("fidelity: {} cases: {} same, {} different, {} unmatched",
                     r.same + r.different + r.unmatched, r.same, r.different, r.unmatched);
}

}  // namespace caliber
