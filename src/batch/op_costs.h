#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace caliber {

// Expected wall seconds per op, for ordering a batch longest first. Read from the wall_s column
// of an ops_status.csv (a batch directory's, or a file such as ops/op_costs.csv) with ops that
// never ran left out; the numbers only order work, they never enter a result.
struct OpCosts {
  std::map<std::string, double> wall_s;
  std::string source;  // the file they came from; empty when none was found
};

// `path` is an ops_status.csv or a batch directory holding one. A missing or unreadable file
// gives no costs (the batch keeps its selection order) unless `required`, where it is a usage
// error naming `knob`.
OpCosts load_op_costs(const std::filesystem::path& path, bool required, const char* knob);

// Costs in `ops` order; an op without a known cost gets the median of the known ones, so it
// lands mid-queue rather than first or last. Empty when no op has a cost.
std::vector<double> expected_costs(const std::vector<std::string>& ops, const OpCosts& costs);

}  // namespace caliber
