#pragma once

#include <string>
#include <vector>

#include "batch/op_selection.h"
#include "core/choice.h"
#include "core/knobs.h"

namespace caliber {

// `op`: a fresh `caliber run` process per op, the old harness's behaviour. `worker`: one
// long-lived `caliber worker` per device lane that runs op after op, replaced after any
// failure, so process start-up (CUDA context, a Python candidate's import) is paid once per
// lane instead of once per op.
enum class Isolation { kOp, kWorker };

// The default isolation mode, from the H200 measurement of 2026-11-29 (docs/results.md): on 41
// ops (softmax, norm, reduction; float16, core) workers took 36.2 s against 68.7 s for a process
// per op, but the second (worker) screen timed 55 of 202 small-shape rows 3-12% slower and the
// cause (worker process state or the order of the two screens) is not yet separated. Until a
// same-mode repeat clears that, numbers come first: a process per op stays the default and
// workers are opt-in (--isolation worker).
inline constexpr Isolation kDefaultIsolation = Isolation::kOp;

const Choice<Isolation>& isolation_choice();
inline const char* to_string(Isolation v) { return isolation_choice().name(v); }

// Everything `caliber batch` was asked to do, as typed; plan_batch resolves it.
struct BatchOptions {
  FlagValues knob_flags;  // knob name -> text, as typed; passed through to every child
  SelectionRequest selection;
  std::string ops_file;
  std::string dismiss_file;  // empty: the source tree's ops/dismiss.yaml when present
  bool use_dismiss_list = true;
  std::string devices;  // "0,1,2,3"; empty: every device of the backend
  Isolation isolation = kDefaultIsolation;
  int retries = 2;
  double timeout_s = 0;  // > 0: a fixed per-op timeout instead of the scaled one
  double timeout_base_s = 60;
  double timeout_per_case_s = 5;  // per shape and dtype
  double kill_grace_s = 5;
  bool force = false;
  bool redo_failed = false;
  bool progress = true;
  std::string command_line;
};

}  // namespace caliber
