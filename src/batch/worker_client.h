#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "batch/child_process.h"
#include "core/process_memory.h"

namespace caliber {

// The batch's side of one long-lived `caliber worker`: sends one request line, waits for the
// one-line answer {"op": ..., "exit": code}. A worker that dies, stops answering before the
// deadline or is interrupted is killed with its whole process group; the lane then starts a
// fresh one for the next op.
class WorkerClient {
 public:
  explicit WorkerClient(const ChildSpec& spec);

  // The child exit the request amounts to: kExited with the answered exit code, or how the
  // worker itself ended (signal, timeout, interruption) when no answer came.
  ChildExit run(const std::string& request_line, Deadline& deadline, const std::atomic<bool>& stop,
                double grace_s);

  bool alive() const { return alive_; }
  // The worker process's resident set now; nullopt once it is gone.
  std::optional<int64_t> resident_bytes() const {
    return alive_ ? resident_set_bytes(process_->pid()) : std::nullopt;
  }
  // Closes the worker's input (it exits at end of input), then makes sure its group is gone.
  void shutdown(double grace_s) {
    begin_shutdown();
    finish_shutdown(grace_s);
  }
  // The two halves, so that a replaced worker's exit (tearing its device context down takes about
  // 0.4 s on an H200) can overlap its successor's start.
  void begin_shutdown();
  void finish_shutdown(double grace_s);

 private:
  ChildExit exchange(const std::string& request_line, Deadline& deadline,
                     const std::atomic<bool>& stop, double grace_s);
  ChildExit ended(ChildExit::How how_if_running, double grace_s);

  std::unique_ptr<ChildProcess> process_;
  std::string buffer_;
  bool alive_ = true;
};

}  // namespace caliber
