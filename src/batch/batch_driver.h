#pragma once

#include "batch/batch_options.h"
#include "core/knobs.h"

namespace caliber {

// Exit code of an interrupted batch (128 + SIGINT, as a shell reports it).
inline constexpr int kInterruptedExitCode = 130;

// `caliber batch`: selects ops, runs each in isolation on its device lane with retries and the
// dtype fallback, and keeps the batch directory resumable at every moment. Returns 0 when every
// selected op passed, 1 when some did not, kInterruptedExitCode when interrupted; throws a usage
// Error (exit 2) for bad options or a directory another batch holds.
int run_batch(const BatchOptions& options, const EnvLookup& env);

}  // namespace caliber
