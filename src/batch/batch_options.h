#pragma once

#include <optional>
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

// The isolation when --isolation is not given: a persistent worker for a python: candidate,
// a process per op otherwise. Measured on the H200, 2026-11-29 (docs/results.md): a process per
// op costs 0.81 s more per op than a worker (251 ops: 523.8 s against 319.7 s), and a Python
// candidate's import 11.5 s more again, which a worker pays once. Without a Python candidate the
// numbers decide: two worker screens agreed (graph-timed rows 94.6% SAME, geomean 1.0005), but
// a worker timed the launch-bound (< 10 us) graph rows 3% slower than fresh processes did, for a
// reason not yet established, so a fresh process stays the reference.
Isolation default_isolation(const std::string& candidate);

const Choice<Isolation>& isolation_choice();
inline const char* to_string(Isolation v) { return isolation_choice().name(v); }

// Everything `caliber batch` was asked to do, as typed; plan_batch resolves it.
struct BatchOptions {
  FlagValues knob_flags;  // knob name -> text, as typed; passed through to every child
  SelectionRequest selection;
  std::string ops_file;
  std::string dismiss_file;  // empty: the source tree's ops/dismiss.yaml when present
  bool use_dismiss_list = true;
  std::string devices;                 // "0,1,2,3"; empty: every device of the backend
  std::optional<Isolation> isolation;  // unset: default_isolation() of the candidate
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
