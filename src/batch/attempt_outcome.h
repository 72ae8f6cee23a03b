#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/child_process.h"
#include "core/ops_status.h"

namespace caliber {

// What one attempt at an op (one child run, or one request to a worker) came to.
struct AttemptOutcome {
  OpState state = OpState::kFailed;
  std::optional<int> exit_code;
  int signal = 0;
  double wall_s = 0;
  std::string error;  // one line: why, in the child's words where it left some

  // Two attempts with the same signature failed the same way: retrying again would only
  // repeat it. Digits are blurred so that addresses and pids do not make failures look
  // different.
  std::string signature() const;
};

// Exit codes of `caliber run`: 0 ok, 1 some rows failed, 2 bad input, 3 device fatal; 127 is
// what the batch's own child stub exits with when the binary cannot be executed.
AttemptOutcome classify_exit(const ChildExit& exit, double timeout_s, const std::string& log_error);

// The line of a child's log that best says why it failed: the last one that mentions an error,
// else the last non-empty one. Reads only the log's tail.
std::string error_line_from_log(const std::filesystem::path& log);

// Retry while attempts remain, unless the failure cannot change (bad input, interruption) or
// the last two attempts failed with the same signature.
bool should_retry(const std::vector<AttemptOutcome>& attempts, int max_retries);

}  // namespace caliber
