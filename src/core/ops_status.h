#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace caliber {

// Where an op stands in a batch. The failure states are kept apart because they call for
// different actions: a crash or a hang is a harness-level problem of the op, a device-fatal
// error may have taken the device down, an ordinary failure is a FAILED row.
enum class OpState {
  kPending,
  kOk,
  kPartial,  // the all-dtypes run failed; some dtypes passed alone
  kFailed,
  kCrashed,
  kHung,
  kDeviceFatal,
  kBadInput,
  kDismissed,
  kInterrupted,
  // Written only by a Slurm sweep's merge: the op never finished because its array task ended
  // (cancelled, timed out, node failure: the task's fate, named in the slurm_state column), or
  // its shard never started. Neither is a failure of the op; resubmitting resumes both.
  kTaskEnded,  // "task_<slurm state>", e.g. task_cancelled
  kNotRun,
};

const char* to_string(OpState state);
// Case-insensitive; "success" and "passed" read as ok, as files of the Python harness say, and
// every "task_<slurm state>" as kTaskEnded.
std::optional<OpState> op_state_from_string(const std::string& text);
// A final state is recorded in a .complete marker; a resumed batch does not redo the op.
bool is_final(OpState state);
bool is_failure(OpState state);

// One row of a batch directory's ops_status.csv: what happened to an op as a whole (it may have
// no result rows at all: dismissed, crashed, hung). This file owns the format: the batch driver
// writes it and the report reads it through the functions below.
struct OpStatus {
  std::string op;
  OpState state = OpState::kPending;
  int attempts = 0;
  std::vector<std::string> dtypes_passed;
  std::vector<std::string> dtypes_failed;
  std::string backend;
  int device = -1;  // -1: never ran
  std::string timer_used;
  double wall_s = 0;
  std::optional<int> exit_code;
  std::string signal;  // "SIGSEGV"; empty when none
  std::string error;   // one line
};

extern const char* const kStatusCsvHeader;
std::string status_csv(const std::vector<OpStatus>& rows);
// Read by column name, so that a file with columns added or reordered still reads; a missing
// column reads as empty. A status that is not one of OpState's names is a usage error.
std::vector<OpStatus> parse_status_csv(const std::string& text);
std::vector<OpStatus> read_ops_status(const std::filesystem::path& path);

nlohmann::json to_json(const OpStatus& status);
OpStatus op_status_from_json(const nlohmann::json& json);

}  // namespace caliber
