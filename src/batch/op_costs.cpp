#include "batch/op_costs.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/ops_status.h"
#include "core/error.h"

namespace caliber {

OpCosts load_op_costs(const std::filesystem::path& path, bool required, const char* knob) {
  std::filesystem::path file = path;
  if (std::filesystem::is_directory(file)) file /= "ops_status.csv";
  std::ifstream in(file);
  if (!in) {
    if (required) {
      throw_usage("{}: '{}' is not readable (accepted: an ops_status.csv or a batch directory)",
                  knob, path.string());
    }
    return {};
  }
  std::stringstream text;
  text << in.rdbuf();
  OpCosts costs;
  try {
    for (const OpStatus& row : parse_status_csv(text.str())) {
      if (row.wall_s > 0) costs.wall_s[row.op] = row.wall_s;
    }
  } catch (const std::exception& e) {
    if (required) {
      throw_usage("{}: '{}' is not an ops_status.csv: {}", knob, path.string(), e.what());
    }
    return {};
  }
  costs.source = file.string();
  return costs;
}

std::vector<double> expected_costs(const std::vector<std::string>& ops, const OpCosts& costs) {
  std::vector<double> known;
  for (const std::string& op : ops) {
    auto it = costs.wall_s.find(op);
    if (it != costs.wall_s.end()) known.push_back(it->second);
  }
  if (known.empty()) return {};
  std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
  const double median = known[known.size() / 2];
  std::vector<double> out;
  for (const std::string& op : ops) {
    auto it = costs.wall_s.find(op);
    out.push_back(it != costs.wall_s.end() ? it->second : median);
  }
  return out;
}

}  // namespace caliber
