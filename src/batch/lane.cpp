#include "batch/lane.h"

#include <fmt/format.h>

#include "batch/deadline.h"
#include "core/process_memory.h"

namespace caliber {

ChildSpec lane_child_spec(const BatchPlan& plan, int device, std::vector<std::string> argv) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.env = lane_environment(*plan.backend, device, process_env());
  // The device's bandwidth and matrix-rate ceilings are measured by the first op on a lane and
  // read from this file by every later one.
  spec.env.emplace_back("CALIBER_PEAKS_FILE",
                        (plan.out_dir / fmt::format("device_peaks-{}.json", device)).string());
  for (const auto& [name, value] : plan.child_env) spec.env.emplace_back(name, value);
  return spec;
}

Lane::Lane(const BatchPlan& plan, int device, const std::atomic<bool>& stop, LaneLog log)
    : plan_(plan), device_(device), stop_(stop), log_(std::move(log)) {}

Lane::~Lane() { retire_worker(); }

void Lane::retire_worker() {
  finish_retiring();
  if (worker_) worker_->shutdown(plan_.options.kill_grace_s);
  worker_.reset();
  worker_ops_ = 0;
}

void Lane::finish_retiring() {
  if (retiring_) retiring_->finish_shutdown(plan_.options.kill_grace_s);
  retiring_.reset();
}

// Growth is counted from the worker's resident set after its first op, so what every op needs
// (the runtime, the device context, a Python candidate's import) is not counted, and what piles
// up op after op (kernels and library state loaded on first use, allocator retention) is. A
// fresh worker sheds it, for a process start (about 0.3 s; a Python candidate's import more).
// The grown worker is only told to exit here: its exit overlaps the next op's start of a new
// worker, and the new one gets its first request once the old one is gone.
void Lane::recycle_worker_if_grown(const std::string& last_op) {
  std::optional<int64_t> rss = worker_->resident_bytes();
  if (!rss) return;
  if (++worker_ops_ == 1) {
    worker_first_rss_ = *rss;
    return;
  }
  const double limit_mib = plan_.options.worker_max_growth_mib;
  const double grown_mib = static_cast<double>(*rss - worker_first_rss_) / kMiB;
  if (limit_mib <= 0 || grown_mib <= limit_mib) return;
  if (log_) {
    log_(fmt::format(
        "worker on device {} recycled after {} (its op {}): resident set {:.0f} MiB, {:.0f} MiB "
        "above its first op's (--worker-max-growth-mib {:g})",
        device_, last_op, worker_ops_, static_cast<double>(*rss) / kMiB, grown_mib, limit_mib));
  }
  finish_retiring();
  retiring_ = std::move(worker_);
  retiring_->begin_shutdown();
  worker_ops_ = 0;
}

ChildExit Lane::run_process(const RunRequest& request, const FlagValues& flags,
                            Deadline& deadline) {
  finish_retiring();
  ChildSpec spec =
      lane_child_spec(plan_, device_, run_argv(plan_.child_binary, flags, request.shard));
  spec.stdout_path = request.log_path;
  ChildProcess child(spec);
  return child.wait(deadline, stop_, plan_.options.kill_grace_s);
}

ChildExit Lane::run_in_worker(const RunRequest& request, const FlagValues& flags,
                              Deadline& deadline) {
  if (worker_ && !worker_->alive()) retire_worker();
  if (!worker_) {
    ChildSpec spec = lane_child_spec(plan_, device_, {plan_.child_binary.string(), "worker"});
    spec.stdin_pipe = true;
    spec.stderr_path = plan_.out_dir / "workers" / fmt::format("device-{}.log", device_);
    worker_ = std::make_unique<WorkerClient>(spec);
  }
  finish_retiring();
  return worker_->run(worker_request_line(worker_request(flags, request)), deadline, stop_,
                      plan_.options.kill_grace_s);
}

AttemptOutcome Lane::attempt(const RunRequest& request, bool use_worker) {
  std::filesystem::create_directories(request.out_dir);
  FlagValues flags = run_flags(plan_.child_flags, request);
  Deadline deadline = Deadline::after_progress(request.timeout_s, plan_.options.timeout_stretch,
                                               request.out_dir / "results.jsonl");
  ChildExit exit =
      use_worker ? run_in_worker(request, flags, deadline) : run_process(request, flags, deadline);
  AttemptOutcome outcome =
      classify_exit(exit, request.timeout_s, error_line_from_log(request.log_path));
  if (exit.how == ChildExit::How::kTimedOut) {
    outcome.error = deadline.reason() + "; process group killed";
  }
  if (use_worker && outcome.state != OpState::kOk) retire_worker();
  if (use_worker && worker_) recycle_worker_if_grown(request.op);
  return outcome;
}

}  // namespace caliber
