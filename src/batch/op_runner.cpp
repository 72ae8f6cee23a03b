#include "batch/op_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <csignal>
#include <set>
#include <thread>

#include "batch/parallel_warmup.h"
#include "core/dtype.h"
#include "core/op_run_dirs.h"
#include "core/result_row.h"

namespace caliber {
namespace {

// A child killed by a signal that also stops the batch (scancel signals every process of the
// Slurm step, a terminal's Ctrl-C the whole foreground group) died of the stop, not of its op,
// even when it died before the batch's own handler ran: wait briefly for that handler to say so.
bool killed_by_the_batchs_stop(const AttemptOutcome& a, const std::atomic<bool>& stop) {
  if (a.state != OpState::kCrashed) return false;
  if (a.signal != SIGTERM && a.signal != SIGINT && a.signal != SIGHUP) return false;
  for (int i = 0; i < 40 && !stop.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return stop.load();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The timers the op's rows say were used (a shape may fall back from graph to direct).
std::string timers_used(const std::filesystem::path& op_dir) {
  std::set<std::string> timers;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(op_dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->path().filename() == "warmup") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() != "results.jsonl") continue;
    try {
      for (const auto& row : read_results_jsonl(it->path().string())) {
        if (!row.timer_used.empty()) timers.insert(row.timer_used);
      }
    } catch (const std::exception&) {
      // An unreadable results file is the run's failure to report, not the batch's.
    }
  }
  return fmt::format("{}", fmt::join(timers, "+"));
}

}  // namespace

RunRequest OpRunner::base_request(const OpEntry& op) const {
  RunRequest r;
  r.op = op.name;
  r.out_dir = dir_.op_dir(op.name);
  if (!plan_.knobs.replay_from.empty()) {
    auto earlier =
        tuner_records_path(std::filesystem::absolute(plan_.knobs.replay_from) / "ops" / op.name);
    if (std::filesystem::exists(earlier)) {
      r.tuner = "replay";
      r.tuner_file = earlier.string();
      return r;
    }
    if (plan_.knobs.tuner == TunerMode::kReplay) {
      // The earlier batch recorded nothing for this op (it runs no GEMM), so there is nothing to
      // replay and TunableOp would refuse a missing file; the op runs exactly as with the tuner
      // off, and its identity says so.
      r.tuner = "off";
      return r;
    }
  }
  auto own = tuner_records_path(r.out_dir);
  if (wants_parallel_warmup(plan_, op) && std::filesystem::exists(own)) {
    r.tuner = "replay";
    r.tuner_file = own.string();
  } else if (plan_.knobs.tuner == TunerMode::kRecord && plan_.knobs.tuner_file.empty()) {
    // Parallel children must not record into one file; each op records into its own.
    r.tuner_file = own.string();
  }
  return r;
}

OpRunner::Attempts OpRunner::run_with_retries(RunRequest request, Lane& lane, bool first_in_worker,
                                              const std::vector<std::string>& dtypes) const {
  Attempts out;
  std::vector<AttemptOutcome>& attempts = out.outcomes;
  std::string what = request.dtypes.empty()
                         ? std::string("all dtypes")
                         : fmt::format("dtypes {}", fmt::join(request.dtypes, ","));
  while (should_retry(attempts, plan_.options.retries) && !stop_.load()) {
    int n = static_cast<int>(attempts.size()) + 1;
    request.log_path = request.out_dir / fmt::format("attempt-{}.log", n);
    // Only a first attempt goes to the worker; a retry runs in a fresh process.
    bool in_worker = first_in_worker && n == 1;
    attempts.push_back(lane.attempt(request, in_worker));
    if (killed_by_the_batchs_stop(attempts.back(), stop_)) {
      attempts.back().state = OpState::kInterrupted;
    }
    const AttemptOutcome& a = attempts.back();
    dir_.log(fmt::format("{} ({}) attempt {} on device {} in {}: {} after {:.1f} s{}", request.op,
                         what, n, lane.device(), in_worker ? "worker" : "process",
                         to_string(a.state), a.wall_s, a.error.empty() ? "" : ": " + a.error));
    // A worker's run may fail for what earlier ops left in its process (memory, a candidate's
    // state): that one still gets its retry in a fresh process.
    if (in_worker) continue;
    out.candidate_split = candidate_only_failures(a, request.out_dir, dtypes);
    if (out.candidate_split) {
      dir_.log(fmt::format("{} ({}): only the candidate's rows failed ({}), so no retry",
                           request.op, what, fmt::join(out.candidate_split->failed, ",")));
      break;
    }
  }
  if (attempts.empty()) {
    AttemptOutcome interrupted;
    interrupted.state = OpState::kInterrupted;
    attempts.push_back(interrupted);
  }
  return out;
}

OpStatus OpRunner::run(const OpEntry& op, Lane& lane) const {
  auto start = Clock::now();
  OpStatus status;
  status.op = op.name;
  status.backend = plan_.backend->name;
  status.device = lane.device();

  std::vector<std::string> dtypes = op.dtypes;
  if (!plan_.knobs.dtypes.empty()) {
    dtypes.clear();
    for (DType d : plan_.knobs.dtypes) dtypes.push_back(dtype_name(d));
  }
  RunRequest all = base_request(op);
  all.timeout_s = op_timeout_s(plan_.options, op.shape_count, dtypes.empty() ? 3 : dtypes.size());
  Attempts run = run_with_retries(all, lane, plan_.isolation == Isolation::kWorker, dtypes);
  const std::vector<AttemptOutcome>& attempts = run.outcomes;
  const AttemptOutcome& last = attempts.back();
  status.attempts = static_cast<int>(attempts.size());
  status.exit_code = last.exit_code;
  status.signal = last.signal != 0 ? signal_name(last.signal) : "";
  status.error = last.error;
  status.state = last.state;

  if (last.state == OpState::kOk) {
    status.dtypes_passed = dtypes;
  } else if (run.candidate_split) {
    // The rows already say which dtypes the candidate failed; alone they would fail the same.
    status.dtypes_passed = run.candidate_split->passed;
    status.dtypes_failed = run.candidate_split->failed;
    if (!status.dtypes_passed.empty()) status.state = OpState::kPartial;
  } else if (last.state != OpState::kInterrupted && last.state != OpState::kBadInput &&
             dtypes.size() > 1) {
    for (const auto& dtype : dtypes) {
      RunRequest alone = base_request(op);
      alone.dtypes = {dtype};
      alone.out_dir = dtype_rerun_dir(alone.out_dir, dtype);
      alone.timeout_s = op_timeout_s(plan_.options, op.shape_count, 1);
      OpState result = run_with_retries(alone, lane, false, alone.dtypes).outcomes.back().state;
      if (result == OpState::kInterrupted) {
        status.state = OpState::kInterrupted;
        break;
      }
      (result == OpState::kOk ? status.dtypes_passed : status.dtypes_failed).push_back(dtype);
    }
    if (status.state != OpState::kInterrupted) {
      if (status.dtypes_failed.empty()) {
        status.state = OpState::kOk;
        status.error = "all-dtypes run failed (" + last.error + "); each dtype passed alone";
      } else if (!status.dtypes_passed.empty()) {
        status.state = OpState::kPartial;
      }
    }
  } else if (last.state != OpState::kInterrupted) {
    status.dtypes_failed = dtypes;
  }
  status.timer_used = timers_used(dir_.op_dir(op.name));
  status.wall_s = seconds_since(start);
  return status;
}

}  // namespace caliber
