#pragma once

#include <cstdio>

#include "core/knobs.h"

namespace caliber {

// Where a run's human-readable output goes: the terminal (stdout, colour and a progress line
// where it is a TTY), or a file (the op's log, for the worker).
struct RunOutput {
  std::FILE* out = stdout;
  bool color = false;
  bool progress = false;
};

// `caliber run` as a function: resolves the knobs, runs one op (all its shapes and dtypes) and
// writes the run directory. Returns the exit code (0 all rows succeeded, 1 some failed,
// 2 bad input, 3 device fatal). The batch driver's persistent worker calls it op after op.
int execute_run(const FlagValues& flags, const EnvLookup& env, const RunOutput& output);

}  // namespace caliber
