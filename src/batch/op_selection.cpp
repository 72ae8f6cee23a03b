#include "batch/op_selection.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <set>

#include "batch/text_util.h"
#include "core/choice.h"
#include "core/error.h"

namespace caliber {
namespace {

const YAML::Node* entries_of(const YAML::Node& root, YAML::Node& holder) {
  if (root.IsSequence()) {
    holder = root;
    return &holder;
  }
  if (root.IsMap()) {
    for (const char* key : {"dismiss", "ops"}) {
      if (root[key] && root[key].IsSequence()) {
        holder = root[key];
        return &holder;
      }
    }
  }
  return nullptr;
}

}  // namespace

std::vector<DismissEntry> load_dismiss_list(const std::filesystem::path& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    throw_usage("{}: {}", path.string(), e.what());
  }
  std::vector<DismissEntry> out;
  if (root.IsNull()) return out;
  YAML::Node holder;
  const YAML::Node* entries = entries_of(root, holder);
  if (entries == nullptr) {
    throw_usage("{}: expected a list of {{op, reason, verified_on}} entries", path.string());
  }
  for (const auto& node : *entries) {
    DismissEntry e;
    if (node["op"]) e.op = node["op"].as<std::string>();
    if (node["reason"]) e.reason = node["reason"].as<std::string>();
    if (node["verified_on"]) e.verified_on = node["verified_on"].as<std::string>();
    if (e.op.empty()) {
      throw_usage("{} line {}: a dismiss entry has no op", path.string(), node.Mark().line + 1);
    }
    if (trim(e.reason).empty()) {
      throw_usage("{} line {}: dismiss entry '{}' has no reason (every entry must say why)",
                  path.string(), node.Mark().line + 1, e.op);
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> read_ops_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw_usage("--ops-file: cannot read '{}'", path.string());
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    for (auto& op : split_nonempty(line, ',')) out.push_back(std::move(op));
  }
  return out;
}

Selection select_ops(const std::vector<OpEntry>& catalog, const SelectionRequest& request,
                     const std::vector<DismissEntry>& dismiss) {
  std::vector<OpEntry> candidates;
  if (request.ops.empty()) {
    candidates = catalog;
  } else {
    std::set<std::string> seen;
    for (const auto& name : request.ops) {
      if (!seen.insert(name).second) continue;
      auto it = std::find_if(catalog.begin(), catalog.end(),
                             [&](const OpEntry& e) { return e.name == name; });
      if (it != catalog.end()) {
        candidates.push_back(*it);
      } else if (catalog.empty()) {
        candidates.push_back(OpEntry{name, "", 0, {}});
      } else {
        throw_usage("--ops: '{}' is not an op (caliber ops lists them)", name);
      }
    }
  }
  Selection out;
  for (auto& op : candidates) {
    if (!request.families.empty()) {
      std::string family = to_lower(op.family);
      bool wanted = std::any_of(request.families.begin(), request.families.end(),
                                [&](const std::string& f) { return to_lower(f) == family; });
      if (!wanted) continue;
    }
    auto d = std::find_if(dismiss.begin(), dismiss.end(),
                          [&](const DismissEntry& e) { return e.op == op.name; });
    if (d != dismiss.end()) {
      out.dismissed.emplace_back(op, *d);
    } else {
      out.ops.push_back(op);
    }
  }
  return out;
}

}  // namespace caliber
