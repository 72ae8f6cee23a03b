#include "batch/op_selection.h"

#include <algorithm>
#include <fstream>
#include <set>

#include "core/choice.h"
#include "core/error.h"
#include "core/text_util.h"

namespace caliber {

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
                     const OpList& dismiss, const std::string& backend) {
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
    if (const OpListEntry* d = dismiss.dismissal(op.name, backend)) {
      out.dismissed.emplace_back(op, *d);
    } else {
      out.ops.push_back(op);
    }
  }
  return out;
}

}  // namespace caliber
