#pragma once

#include <string>
#include <vector>

#include "report/run_collection.h"

namespace caliber {

// summary.csv: one record per op x shape x dtype x provider of every collection, plus one per op
// that ops_status.csv reports without rows (dismissed, crashed), so nothing drops out silently.
const std::vector<std::string>& summary_columns();
std::vector<std::vector<std::string>> summary_records(const std::vector<RunCollection>& runs);
std::string summary_csv(const std::vector<RunCollection>& runs);

// The terminal view: per family and provider, how many rows, how many failed, the geometric mean
// speedup of candidate rows and the median latency.
std::string summary_overview(const std::vector<RunCollection>& runs, bool color);

}  // namespace caliber
