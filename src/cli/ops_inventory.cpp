#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/ops_parity.h"
#include "core/data_paths.h"
#include "core/op_list.h"
#include "ops/op_registry.h"
#include "report/flaggems_marks.h"

namespace caliber {
namespace {

// A dismissal that stands for the whole op: no backend, no dtype narrows it.
const OpListEntry* op_wide_dismissal(const OpList& list, const std::string& name) {
  for (const auto& e : list.entries()) {
    if (e.op == name && e.backend.empty() && e.dtypes.empty()) return &e;
  }
  return nullptr;
}

}  // namespace

int print_inventory(const std::string& dir, const std::string& dismiss_file, bool as_json) {
  std::vector<FlaggemsMark> marks = read_flaggems_marks(dir);
  OpList dismissed = OpList::load(dismiss_file.empty() ? default_dismiss_list()
                                                       : std::filesystem::path(dismiss_file));
  std::map<std::string, int> counts = {{"covered", 0}, {"dismissed", 0}, {"missing", 0}};
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> lines;
  for (const auto& mark : marks) {
    nlohmann::json row = {{"mark", mark.name}, {"files", mark.files}};
    if (const OpDef* op = find_op_answering(mark.name)) {
      row["status"] = "covered";
      row["op"] = op->name();
      lines.push_back(op->name() == mark.name
                          ? fmt::format("{:<56} covered", mark.name)
                          : fmt::format("{:<56} covered (as {})", mark.name, op->name()));
    } else if (const OpListEntry* e = op_wide_dismissal(dismissed, mark.name)) {
      row["status"] = "dismissed";
      row["reason"] = e->reason;
      row["verified_on"] = e->verified_on;
      lines.push_back(fmt::format("{:<56} dismissed ({})", mark.name, e->reason));
    } else {
      row["status"] = "missing";
      lines.push_back(fmt::format("{:<56} missing", mark.name));
    }
    ++counts[row["status"].get<std::string>()];
    rows.push_back(std::move(row));
  }
  if (as_json) {
    fmt::print(
        "{}\n",
        nlohmann::json{{"dir", dir}, {"marks", rows.size()}, {"counts", counts}, {"rows", rows}}
            .dump(2));
    return 0;
  }
  for (const auto& line : lines) fmt::print("{}\n", line);
  fmt::print("inventory: {} marks: {} covered, {} dismissed, {} missing\n", marks.size(),
             counts["covered"], counts["dismissed"], counts["missing"]);
  return 0;
}

}  // namespace caliber
