#include "ops/op_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/error.h"
#include "ops/derived_families.h"
#include "ops/families.h"

namespace caliber {
namespace {

bool selftest_enabled() {
  const char* v = std::getenv("CALIBER_SELFTEST");
  return v != nullptr && std::string(v) == "1";
}

std::vector<OpDef> build_registry() {
  std::vector<OpDef> ops;
  // The family tables, then the tables whose rows derive ATen variants (ops/derived_families.h),
  // then the selftest fault ops, which exist only when asked for.
#define CALIBER_FAMILY_ADD(value, name, table)             \
  if (Family::value != Family::kSelftest) {                \
    for (auto& op : table()) ops.push_back(std::move(op)); \
  }
  CALIBER_FAMILIES(CALIBER_FAMILY_ADD)
#undef CALIBER_FAMILY_ADD
  for (auto derived : {unary_variant_ops,
                       binary_variant_ops,
                       reduction_variant_ops,
                       tensor_variant_ops,
                       construct_variant_ops,
                       index_variant_ops,
                       padding_ops,
                       upsample_ops,
                       pooling_ops,
                       view_ops,
                       linalg_ops,
                       loss_variant_ops,
                       norm_variant_ops,
                       optimizer_ops,
                       quantize_ops,
                       rnn_ops,
                       fused_ops,
                       llm_misc_ops,
                       moe_quant_ops,
                       kv_attention_ops}) {
    for (auto& op : derived()) ops.push_back(std::move(op));
  }
  if (selftest_enabled()) {
    for (auto& op : selftest_ops()) ops.push_back(std::move(op));
  }
  std::set<std::string> seen;
  for (const auto& op : ops) {
    if (!seen.insert(op.name()).second) {
      throw Error(ErrorKind::kInternal, "op defined twice: " + op.name());
    }
  }
  // An alias answers for one op only, and never shadows an op's own name.
  for (const auto& op : ops) {
    for (const auto& alias : op.aliases()) {
      if (!seen.insert(alias).second) {
        throw Error(ErrorKind::kInternal,
                    "name given twice: " + alias + " (alias of " + op.name() + ")");
      }
    }
  }
  return ops;
}

// Edit distance, to suggest what the user may have meant.
size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const std::vector<OpDef>& all_ops() {
  static const std::vector<OpDef> ops = build_registry();
  return ops;
}

const OpDef* find_op_or_null(const std::string& name) {
  for (const auto& op : all_ops()) {
    if (op.name() == name) return &op;
  }
  return nullptr;
}

const OpDef& find_op(const std::string& name, const std::string& knob) {
  if (const OpDef* op = find_op_or_null(name)) return *op;
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& op : all_ops()) near.emplace_back(distance(name, op.name()), op.name());
  std::sort(near.begin(), near.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < near.size() && i < 5; ++i) names.push_back(near[i].second);
  throw_usage("{}: '{}' is not an op (closest: {}; `caliber ops` lists all {})", knob, name,
              fmt::join(names, ", "), all_ops().size());
}

const OpDef* find_op_answering(const std::string& name) {
  if (const OpDef* op = find_op_or_null(name)) return op;
  for (const auto& op : all_ops()) {
    if (op.answers_to(name)) return &op;
  }
  return nullptr;
}

std::vector<const OpDef*> ops_in_family(Family family) {
  std::vector<const OpDef*> out;
  for (const auto& op : all_ops()) {
    if (op.family() == family) out.push_back(&op);
  }
  return out;
}

std::vector<Family> families_present() {
  std::vector<Family> out;
  for (const auto& op : all_ops()) {
    if (std::find(out.begin(), out.end(), op.family()) == out.end()) out.push_back(op.family());
  }
  return out;
}

}  // namespace caliber
