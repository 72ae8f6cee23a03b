#include "report/caliber_gate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"

namespace caliber {

namespace {

void add_identity_mismatches(const RunIdentity& a, const RunIdentity& b, const std::string& where,
                             std::vector<FieldMismatch>& out) {
  nlohmann::json ja = to_json(a);
  nlohmann::json jb = to_json(b);
  for (const auto& field : identity_differences(a, b, number_changing_fields())) {
    bool seen = std::any_of(out.begin(), out.end(),
                            [&](const FieldMismatch& m) { return m.field == field; });
    if (seen) continue;  // the first op that shows a field is enough to name it
    out.push_back(
        {field, fmt::format("{}: A {}, B {}{}", field, ja[field].dump(), jb[field].dump(), where)});
  }
}

void add_missing_identity(const RunIdentity* a, const RunIdentity* b, const std::string& where,
                          std::vector<FieldMismatch>& out) {
  bool seen = std::any_of(out.begin(), out.end(),
                          [](const FieldMismatch& m) { return m.field == "run_identity"; });
  if (seen) return;
  std::string side = !a && !b ? "A and B have" : (!a ? "A has" : "B has");
  out.push_back({"run_identity", fmt::format("run_identity: {} no run_identity.json{} (a bare "
                                             "log cannot show its caliber)",
                                             side, where)});
}

}  // namespace

std::vector<std::string> gate_fields() {
  std::vector<std::string> fields = number_changing_fields();
  fields.push_back("run_identity");
  return fields;
}

std::vector<FieldMismatch> caliber_mismatches(const RunCollection& a, const RunCollection& b) {
  std::set<std::string> ops_a, ops_b;
  for (const auto& r : a.rows) ops_a.insert(r.row.op);
  for (const auto& r : b.rows) ops_b.insert(r.row.op);
  std::vector<FieldMismatch> out;
  bool any_common = false;
  for (const auto& op : ops_a) {
    if (!ops_b.count(op)) continue;
    any_common = true;
    const RunIdentity* ia = a.identity_for_op(op);
    const RunIdentity* ib = b.identity_for_op(op);
    std::string where = fmt::format(" (op {})", op);
    if (ia && ib) {
      add_identity_mismatches(*ia, *ib, where, out);
    } else {
      add_missing_identity(ia, ib, where, out);
    }
  }
  if (!any_common) {
    const RunIdentity* ia = a.any_identity();
    const RunIdentity* ib = b.any_identity();
    if (ia && ib) {
      add_identity_mismatches(*ia, *ib, "", out);
    } else {
      add_missing_identity(ia, ib, "", out);
    }
  }
  return out;
}

std::vector<FieldMismatch> enforce_caliber_gate(const RunCollection& a, const RunCollection& b,
                                                const std::vector<std::string>& allowed) {
  auto accepted = gate_fields();
  for (const auto& field : allowed) {
    if (std::find(accepted.begin(), accepted.end(), field) == accepted.end()) {
      throw_usage("--allow-mismatch: '{}' is not a number-changing field (accepted: {})", field,
                  fmt::join(accepted, ", "));
    }
  }
  std::vector<FieldMismatch> refused, allowed_mismatches;
  for (auto& m : caliber_mismatches(a, b)) {
    bool ok = std::find(allowed.begin(), allowed.end(), m.field) != allowed.end();
    (ok ? allowed_mismatches : refused).push_back(std::move(m));
  }
  if (!refused.empty()) {
    std::vector<std::string> lines, fields;
    for (const auto& m : refused) {
      lines.push_back("  " + m.detail);
      fields.push_back(m.field);
    }
    throw_usage(
        "refusing to compare {} with {}: their calibers differ in {}\n{}\n"
        "numbers measured differently are not comparable; to compare anyway, pass "
        "--allow-mismatch FIELD for each field (recorded in the output)",
        a.root, b.root, fmt::join(fields, ", "), fmt::join(lines, "\n"));
  }
  return allowed_mismatches;
}

}  // namespace caliber
