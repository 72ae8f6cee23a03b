#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

#include "core/knobs.h"
#include "report/compare.h"

namespace caliber {

// The flags a run was made with, read back from its identity's command line ("caliber run
// --flag value ..."): what a confirmation pass re-runs it with. A usage error when the line
// cannot be read back (a value with spaces, an unknown flag).
FlagValues flags_of_command_line(const std::string& command_line);

// How far a confirmation pass may go: a wall-clock budget (0: none), checked before each row
// against the time the rows so far took, and a flag a signal sets; either stops the pass between
// rows, and what it measured stays in the journal.
struct ConfirmationLimits {
  double deadline_s = 0;
  const std::atomic<bool>* interrupted = nullptr;
};

struct ConfirmationPass {
  std::map<size_t, Confirmation> confirmations;  // keyed by row index, reused ones included
  size_t needed = 0;                             // rows that needed confirming
  std::string stopped;                           // "deadline", "interrupted", or empty
};

// `caliber compare --confirm`: re-measures every FAST, SLOW and UNSURE row of `comparison` in this
// process (FAST and SLOW first), `rounds` times, each round running A's flags and B's flags for
// that one case back to back (B first in every other round). Re-runs go under `dir`/confirm/,
// each row's rounds into `dir`/confirm/confirmations.jsonl as soon as they end; rows the journal
// already holds for this comparison are taken from it. Refused (usage error, before any device
// work) when A and B were measured by different harness or torch versions, which one process
// cannot reproduce, or when a run recorded no command line.
ConfirmationPass run_confirmation(const Comparison& comparison, const RunCollection& a,
                                  const RunCollection& b, int rounds,
                                  const std::filesystem::path& dir, const EnvLookup& env,
                                  const ConfirmationLimits& limits = {});

}  // namespace caliber
