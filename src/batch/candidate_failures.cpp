#include "batch/candidate_failures.h"

#include <map>

#include "core/result_row.h"

namespace caliber {

std::optional<DtypeSplit> candidate_only_failures(const AttemptOutcome& attempt,
                                                  const std::filesystem::path& run_dir,
                                                  const std::vector<std::string>& dtypes) {
  // The child's end line: a run that raised, crashed or hung has none.
  if (attempt.state != OpState::kFailed || attempt.error.rfind("caliber run end ", 0) != 0) {
    return std::nullopt;
  }
  struct Seen {
    bool baseline = false;
    bool candidate_failed = false;
  };
  std::map<std::string, Seen> by_dtype;
  for (const ResultRow& row : read_results_jsonl((run_dir / "results.jsonl").string())) {
    Seen& seen = by_dtype[row.dtype];
    if (row.provider == "baseline") {
      if (row.status != RowStatus::kSuccess) return std::nullopt;
      seen.baseline = true;
    } else if (row.status == RowStatus::kFailed) {
      seen.candidate_failed = true;
    }
  }
  std::vector<std::string> asked = dtypes;
  if (asked.empty()) {
    for (const auto& [dtype, seen] : by_dtype) asked.push_back(dtype);
  }
  DtypeSplit split;
  for (const auto& dtype : asked) {
    auto it = by_dtype.find(dtype);
    if (it == by_dtype.end() || !it->second.baseline) return std::nullopt;
    (it->second.candidate_failed ? split.failed : split.passed).push_back(dtype);
  }
  if (split.failed.empty()) return std::nullopt;  // exit 1 for something the rows do not show
  return split;
}

}  // namespace caliber
