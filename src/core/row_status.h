#pragma once

#include <optional>
#include <string_view>

namespace caliber {

// What became of one row (op x shape x dtype x provider). The names are the words results.jsonl,
// summary.csv and FlagGems' printed tables use, from this one table.
enum class RowStatus {
  kSuccess,     // SUCCESS: measured
  kFailed,      // FAILED: the op raised, or the device failed under it
  kNotCovered,  // NOT_COVERED: the candidate does not override the op
  kSkipped,     // SKIPPED: not measured, on purpose
};

const char* to_string(RowStatus status);
// Exact names only; nullopt for anything else.
std::optional<RowStatus> row_status_from_string(std::string_view text);

}  // namespace caliber
