#pragma once

#include <optional>
#include <string>
#include <vector>

#include "batch/op_selection.h"
#include "batch/shard_spec.h"
#include "core/choice.h"
#include "core/knobs.h"

namespace caliber {

// `op`: a fresh `caliber run` process per op, the old harness's behaviour. `worker`: one
// long-lived `caliber worker` per device lane that runs op after op, replaced after any
// failure, so process start-up (CUDA context, a Python candidate's import) is paid once per
// lane instead of once per op.
enum class Isolation { kOp, kWorker };

// The isolation when --isolation is not given: a persistent worker per lane. A process per op pays
// torch's start-up (and a Python candidate's import) per op; since every case seeds its inputs,
// a worker times the same work as a fresh process (docs/results.md, issue 19).
constexpr Isolation kDefaultIsolation = Isolation::kWorker;

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
  std::optional<Isolation> isolation;  // unset: kDefaultIsolation
  int retries = 2;
  double timeout_s = 0;  // > 0: a fixed per-op timeout instead of the scaled one
  double timeout_base_s = 60;
  double timeout_per_case_s = 5;  // per shape and dtype
  // The timeout bounds the time without a measured case: each row a run writes restarts it, up
  // to this many times the timeout in all (1: a fixed deadline). A hang still ends within a
  // timeout of its last row; a slow first call that keeps producing rows is not killed.
  double timeout_stretch = 3;
  double kill_grace_s = 5;
  // A worker whose resident set has grown by more than this since its first op is replaced by
  // a fresh one (0: never). A worker grows with each new op (docs/results.md gives how much over
  // the core corpus), and 1 GiB bounds a sweep at about one restart per lane.
  double worker_max_growth_mib = 1024;
  // true: each lane runs its ops longest first, by expected wall times (batch/op_costs.h), so the
  // end of a screen holds its shortest ops and no lane waits on another's long one (the tail;
  // bench/simulate_lanes). Off by default: in a worker an op's numbers depend a little on the
  // ops before it, and screens run in another order agreed less often on the H200
  // (docs/results.md, issue 21), so the order stays what earlier screens used unless asked.
  bool longest_first = false;
  std::string costs_from;  // empty: ops/op_costs.csv, then this batch's own earlier walls
  // > 0: before the screen, every selected op runs once through this many warm lanes on the
  // first device, `caliber run --warm-only` (the candidate's calls untimed, FlagGems' tuned
  // configs into a throwaway database), so that the measured runs find its kernels compiled
  // (Triton's on-disk cache) and do their own tuning. Needs a candidate.
  int warm_pass = 0;
  bool force = false;
  bool redo_failed = false;
  bool progress = true;
  std::string command_line;
  std::optional<ShardSpec> shard;  // --shard I/N: only this shard of the selected ops
};

}  // namespace caliber
