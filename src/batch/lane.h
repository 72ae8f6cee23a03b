#pragma once

#include <atomic>
#include <memory>

#include "batch/attempt_outcome.h"
#include "batch/batch_plan.h"
#include "batch/child_command.h"
#include "batch/worker_client.h"

namespace caliber {

// One device's line of work: runs attempts on its device, either as a fresh `caliber run`
// process each or through the lane's persistent worker (started on demand, retired after any
// attempt that did not succeed, so a wedged context never serves the next op).
class Lane {
 public:
  Lane(const BatchPlan& plan, int device, const std::atomic<bool>& stop);
  ~Lane();
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  int device() const { return device_; }
  AttemptOutcome attempt(const RunRequest& request, bool use_worker);
  void retire_worker();

 private:
  ChildExit run_process(const RunRequest& request, const FlagValues& flags);
  ChildExit run_in_worker(const RunRequest& request, const FlagValues& flags);

  const BatchPlan& plan_;
  int device_;
  const std::atomic<bool>& stop_;
  std::unique_ptr<WorkerClient> worker_;
};

// A child spec on `device` with the lane's environment.
ChildSpec lane_child_spec(const BatchPlan& plan, int device, std::vector<std::string> argv);

}  // namespace caliber
