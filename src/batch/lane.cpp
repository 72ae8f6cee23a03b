#include "batch/lane.h"

#include <fmt/format.h>

namespace caliber {
namespace {

Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

ChildSpec lane_child_spec(const BatchPlan& plan, int device, std::vector<std::string> argv) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.env = lane_environment(*plan.backend, device, process_env());
  // The device's bandwidth and matrix-rate ceilings are measured by the first op on a lane and
  // read from this file by every later one.
  spec.env.emplace_back("CALIBER_PEAKS_FILE",
                        (plan.out_dir / fmt::format("device_peaks-{}.json", device)).string());
  return spec;
}

Lane::Lane(const BatchPlan& plan, int device, const std::atomic<bool>& stop)
    : plan_(plan), device_(device), stop_(stop) {}

Lane::~Lane() { retire_worker(); }

void Lane::retire_worker() {
  if (worker_) worker_->shutdown(plan_.options.kill_grace_s);
  worker_.reset();
}

ChildExit Lane::run_process(const RunRequest& request, const FlagValues& flags) {
  ChildSpec spec =
      lane_child_spec(plan_, device_, run_argv(plan_.child_binary, flags, request.shard));
  spec.stdout_path = request.log_path;
  ChildProcess child(spec);
  return child.wait(deadline_after(request.timeout_s), stop_, plan_.options.kill_grace_s);
}

ChildExit Lane::run_in_worker(const RunRequest& request, const FlagValues& flags) {
  if (worker_ && !worker_->alive()) retire_worker();
  if (!worker_) {
    ChildSpec spec = lane_child_spec(plan_, device_, {plan_.child_binary.string(), "worker"});
    spec.stdin_pipe = true;
    spec.stderr_path = plan_.out_dir / "workers" / fmt::format("device-{}.log", device_);
    worker_ = std::make_unique<WorkerClient>(spec);
  }
  return worker_->run(worker_request_line(flags, request), deadline_after(request.timeout_s), stop_,
                      plan_.options.kill_grace_s);
}

AttemptOutcome Lane::attempt(const RunRequest& request, bool use_worker) {
  std::filesystem::create_directories(request.out_dir);
  FlagValues flags = run_flags(plan_.child_flags, request);
  ChildExit exit = use_worker ? run_in_worker(request, flags) : run_process(request, flags);
  AttemptOutcome outcome =
      classify_exit(exit, request.timeout_s, error_line_from_log(request.log_path));
  if (use_worker && outcome.state != OpState::kOk) retire_worker();
  return outcome;
}

}  // namespace caliber
