#pragma once

#include <string>
#include <vector>

#include "report/compare.h"

namespace caliber {

// compare.csv: one record per paired row, in the comparison's order (slowest first).
const std::vector<std::string>& compare_columns();
std::string compare_csv(const Comparison& comparison);

// compare.json: the gate (and any allowed mismatch), the thresholds, verdict counts and the
// geometric means per family, for scripts that want the totals without re-reading the CSV.
std::string compare_json(const Comparison& comparison);

// The terminal view of the same records: the row table sorted by effect, then the means.
std::string compare_text(const Comparison& comparison, bool color);

}  // namespace caliber
