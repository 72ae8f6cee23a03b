#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/attempt_outcome.h"

namespace caliber {

// Which dtypes passed and which failed, read from a run's rows.
struct DtypeSplit {
  std::vector<std::string> passed;
  std::vector<std::string> failed;
};

// An attempt whose run ended (exit 1 after its end line) with every baseline row of every asked
// dtype measured and every failed row a candidate's: the candidate's own answer for those cases
// (FlagGems refusing a dtype, a result that differs from the baseline's), which a retry or a run
// of each dtype alone would only repeat. Returns the dtypes whose rows all passed and those with
// a failed row; nothing for any other attempt. `dtypes` empty means the dtypes the rows hold.
std::optional<DtypeSplit> candidate_only_failures(const AttemptOutcome& attempt,
                                                  const std::filesystem::path& run_dir,
                                                  const std::vector<std::string>& dtypes);

}  // namespace caliber
