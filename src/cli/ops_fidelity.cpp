#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cli/ops_parity.h"
#include "core/caliber_options.h"
#include "core/dtype.h"
#include "core/error.h"
#include "engine/op_shapes.h"
#include "ops/input_detail.h"
#include "ops/op_registry.h"
#include "report/fidelity.h"
#include "report/log_archive.h"

namespace caliber {
namespace {

// Where a builder cannot run on the meta device (it reads values back), the host builds the
// case instead, up to this many elements in its largest shape item.
constexpr int64_t kHostBuildLimit = int64_t{1} << 26;

int64_t largest_item(const ShapeCase& c) {
  int64_t largest = 1;
  if (c.shape.is_flat()) {
    int64_t n = 1;
    for (const auto& v : c.shape.items) n *= v.integer;
    largest = n;
  } else {
    for (const auto& v : c.shape.items) {
      if (v.kind != ShapeValue::Kind::kList) continue;
      int64_t n = 1;
      for (const auto& x : v.items) n *= x.kind == ShapeValue::Kind::kInt ? x.integer : 1;
      largest = std::max(largest, n);
    }
  }
  return largest;
}

std::string build_detail(const OpDef& op, const ShapeCase& c, DType dtype) {
  std::string meta_error;
  try {
    return case_size_detail(op, c, dtype, "meta");
  } catch (const Error& e) {
    meta_error = e.what();
  }
  if (largest_item(c) > kHostBuildLimit) return "<not built on meta: " + meta_error + ">";
  try {
    return case_size_detail(op, c, dtype, "cpu");
  } catch (const Error& e) {
    return std::string("<not built: ") + e.what() + ">";
  }
}

CaliberCases caliber_cases(const FlaggemsTable& table) {
  CaliberCases out;
  const OpDef* op = find_op_answering(table.op);
  if (op == nullptr) {
    out.why = fmt::format("no corpus op answers to '{}'", table.op);
    return out;
  }
  out.op = op->name();
  DType dtype{};
  try {
    dtype = parse_dtype("dtype", table.dtype);
  } catch (const Error&) {
    out.why = fmt::format("caliber knows no dtype '{}'", table.dtype);
    return out;
  }
  if (!op->supports(dtype)) {
    out.why = fmt::format("caliber's {} does not run {}", op->name(), table.dtype);
    return out;
  }
  ShapeSources sources;  // the default shape file, no backend override: what a device runs
  sources.level = level_choice().parse("level", table.level);
  for (const auto& c : resolve_op_shapes(*op, sources).cases) {
    out.details.push_back(build_detail(*op, c, dtype));
  }
  out.matched = true;
  return out;
}

}  // namespace

int print_fidelity(const std::vector<std::string>& logs, bool as_json) {
  std::vector<FlaggemsTable> tables;
  for (const auto& log : logs) {
    for (const auto& text : read_log_texts(log, "--fidelity")) {
      auto more = flaggems_tables(text.text, text.name);
      tables.insert(tables.end(), more.begin(), more.end());
    }
  }
  if (tables.empty()) {
    throw_usage(
        "--fidelity: no FlagGems table in {} (accepted: logs with FlagGems' printed "
        "'Operator: ... Performance Test' tables)",
        fmt::join(logs, ", "));
  }
  std::map<std::tuple<std::string, std::string, std::string>, CaliberCases> cache;
  FidelityReport report = check_fidelity(tables, [&cache](const FlaggemsTable& t) {
    auto key = std::make_tuple(t.op, t.dtype, t.level);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, caliber_cases(t)).first;
    return it->second;
  });

  if (as_json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& c : report.cases) {
      rows.push_back({{"source", c.table->source},
                      {"op", c.table->op},
                      {"dtype", c.table->dtype},
                      {"level", c.table->level},
                      {"index", c.index},
                      {"status", to_string(c.status)},
                      {"flaggems", c.table->details[c.index]},
                      {"caliber", c.caliber},
                      {"why", c.why}});
    }
    fmt::print("{}\n", nlohmann::json{{"cases", rows.size()},
                                      {"same", report.same},
                                      {"different", report.different},
                                      {"unmatched", report.unmatched},
                                      {"extra", report.extra},
                                      {"rows", rows}}
                           .dump(2));
    return 0;
  }
  // Unmatched cases one line per table; differences one line each, FlagGems' then caliber's.
  const FlaggemsTable* last_unmatched = nullptr;
  for (const auto& c : report.cases) {
    const FlaggemsTable& t = *c.table;
    if (c.status == FidelityStatus::kUnmatched) {
      if (last_unmatched != &t) {
        fmt::print("unmatched  {} {} {} ({} cases): {}\n", t.op, t.dtype, t.level, t.details.size(),
                   c.why);
      }
      last_unmatched = &t;
    } else if (c.status == FidelityStatus::kDifferent) {
      fmt::print("different  {} {} #{}: flaggems {}  caliber {}\n", t.op, t.dtype, c.index,
                 t.details[c.index], c.caliber.empty() ? "(no case)" : c.caliber);
    }
  }
  for (const auto& e : report.extra) fmt::print("extra      {}\n", e);
  fmt::print("{} tables from {} log(s); {} caliber cases FlagGems does not print\n", tables.size(),
             logs.size(), report.extra.size());
  fmt::print("{}\n", fidelity_summary(report));
  return 0;
}

}  // namespace caliber
