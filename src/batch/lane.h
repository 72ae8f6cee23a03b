#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "batch/attempt_outcome.h"
#include "batch/batch_plan.h"
#include "batch/child_command.h"
#include "batch/worker_client.h"

namespace caliber {

// Where a lane reports what the status rows do not show (a worker recycled).
using LaneLog = std::function<void(const std::string&)>;

// One device's line of work: runs attempts on its device, either as a fresh `caliber run`
// process each or through the lane's persistent worker (started on demand, retired after any
// attempt that did not succeed, so a wedged context never serves the next op, and after its
// memory has grown past --worker-max-growth-mib, so a long sweep's memory stays bounded).
class Lane {
 public:
  Lane(const BatchPlan& plan, int device, const std::atomic<bool>& stop, LaneLog log = {});
  ~Lane();
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  int device() const { return device_; }
  AttemptOutcome attempt(const RunRequest& request, bool use_worker);
  void retire_worker();

 private:
  ChildExit run_process(const RunRequest& request, const FlagValues& flags, Deadline& deadline);
  ChildExit run_in_worker(const RunRequest& request, const FlagValues& flags, Deadline& deadline);
  void recycle_worker_if_grown(const std::string& last_op);
  // Waits for a replaced worker's exit (begun when it was replaced): before anything else runs on
  // the device.
  void finish_retiring();

  const BatchPlan& plan_;
  int device_;
  const std::atomic<bool>& stop_;
  LaneLog log_;
  std::unique_ptr<WorkerClient> worker_;
  std::unique_ptr<WorkerClient> retiring_;  // replaced for its growth, still exiting
  int worker_ops_ = 0;                      // ops the current worker has served
  int64_t worker_first_rss_ = 0;            // its resident set after the first of them
};

// A child spec on `device` with the lane's environment.
ChildSpec lane_child_spec(const BatchPlan& plan, int device, std::vector<std::string> argv);

}  // namespace caliber
