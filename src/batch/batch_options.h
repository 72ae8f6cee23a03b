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
// a process per op otherwise. Workers are faster (a process pays torch's start-up per op, and a
// Python candidate's import), but without a Python candidate the numbers decide: fresh processes
// and workers disagree beyond run-to-run noise on some families, for a reason not established,
// and a fresh process per op is what the old harness did, so it stays the reference. The
// measurements are in docs/results.md.
Isolation default_isolation(const std::string& candidate);

const Choice<Isolation>& isolation_choice();
inline const char* to_string(Isolation v) { return isolation_choice().name(v); }

// Everything `caliber batch` was asked to do, as typed; plan_batch resolves it.
struct BatchOptions {
  FlagValues knob_flags;  // knob name -> text, as typed; passed through to every child
  SelectionRequest selection;
  std::string ops_file;
  std::string dismiss_file;  // empty: data_dir()/ops/dismiss.yaml when present
  bool use_dismiss_list = true;
  std::string devices;                 // "0,1,2,3"; empty: every device of the backend
  std::optional<Isolation> isolation;  // unset: default_isolation() of the candidate
  int retries = 2;
  double timeout_s = 0;  // > 0: a fixed per-op timeout instead of the scaled one
  double timeout_base_s = 60;
  double timeout_per_case_s = 5;  // per shape and dtype
  double kill_grace_s = 5;
  // A worker whose resident set has grown by more than this since its first op is replaced by
  // a fresh one (0: never). A worker grows with each new op (docs/results.md gives how much over
  // the core corpus), and 1 GiB bounds a sweep at about one restart per lane.
  double worker_max_growth_mib = 1024;
  // Each lane runs its ops longest first, by expected wall times (batch/op_costs.h), so that the
  // end of a screen holds its shortest ops and no lane waits on another's long one (the tail;
  // bench/simulate_lanes replays real screens). `selection`: the order ops were selected in.
  bool longest_first = true;
  std::string costs_from;  // empty: ops/op_costs.csv, then this batch's own earlier walls
  bool force = false;
  bool redo_failed = false;
  bool progress = true;
  std::string command_line;
};

}  // namespace caliber
