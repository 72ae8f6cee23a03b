#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "batch/batch_directory.h"
#include "batch/batch_plan.h"
#include "batch/candidate_failures.h"
#include "batch/lane.h"
#include "batch/op_catalog.h"
#include "core/ops_status.h"

namespace caliber {

// Takes one op from start to a final status on a lane: the all-dtypes run with its retries,
// then, when that failed, each dtype alone (the two-level dtype fallback). A run in a fresh process
// that ended with only its candidate's rows failed is neither retried nor split: its rows give
// each dtype's outcome (batch/candidate_failures.h).
class OpRunner {
 public:
  OpRunner(const BatchPlan& plan, BatchDirectory& dir, const std::atomic<bool>& stop)
      : plan_(plan), dir_(dir), stop_(stop) {}

  OpStatus run(const OpEntry& op, Lane& lane) const;

 private:
  struct Attempts {
    std::vector<AttemptOutcome> outcomes;
    // Set when the last attempt, in a fresh process, ended with only candidate rows failed.
    std::optional<DtypeSplit> candidate_split;
  };
  // Attempts one run request, whose run covers `dtypes`, until it succeeds, should_retry says
  // stop or only the candidate's rows failed; logs each attempt.
  Attempts run_with_retries(RunRequest request, Lane& lane, bool first_in_worker,
                            const std::vector<std::string>& dtypes) const;
  RunRequest base_request(const OpEntry& op) const;

  const BatchPlan& plan_;
  BatchDirectory& dir_;
  const std::atomic<bool>& stop_;
};

}  // namespace caliber
