#include "batch/op_catalog.h"

#include <initializer_list>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace caliber {
namespace {

int shape_count_of(const nlohmann::json& op) {
  for (const char* key : {"shape_count", "shapes", "cases"}) {
    if (!op.contains(key)) continue;
    const auto& v = op[key];
    if (v.is_number_integer()) return v.get<int>();
    if (v.is_array()) return static_cast<int>(v.size());
  }
  return 0;
}

OpEntry entry_from_json(const nlohmann::json& op) {
  OpEntry e;
  if (op.is_string()) {
    e.name = op.get<std::string>();
    return e;
  }
  if (!op.is_object()) throw_usage("caliber ops --json: an entry is not an object: {}", op.dump());
  e.name = op.contains("name") ? op["name"].get<std::string>() : op.value("op", "");
  if (e.name.empty()) throw_usage("caliber ops --json: an entry has no name: {}", op.dump());
  if (op.contains("family") && op["family"].is_string()) e.family = op["family"];
  e.shape_count = shape_count_of(op);
  if (op.contains("dtypes") && op["dtypes"].is_array()) {
    for (const auto& d : op["dtypes"]) {
      if (d.is_string()) e.dtypes.push_back(d.get<std::string>());
    }
  }
  return e;
}

}  // namespace

std::vector<OpEntry> parse_op_catalog(const std::string& json_text) {
  nlohmann::json root = nlohmann::json::parse(json_text, nullptr, false);
  if (root.is_discarded()) throw_usage("caliber ops --json printed something that is not JSON");
  const nlohmann::json* list = &root;
  if (root.is_object() && root.contains("ops")) list = &root["ops"];
  if (!list->is_array()) throw_usage("caliber ops --json: expected a list of ops");
  std::vector<OpEntry> out;
  for (const auto& op : *list) out.push_back(entry_from_json(op));
  return out;
}

}  // namespace caliber
