#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace caliber {

// How to start one child: the executable and its arguments, environment changes (a value sets
// the variable, nullopt removes it) and where its output goes.
struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the executable's path
  std::vector<std::pair<std::string, std::optional<std::string>>> env;
  std::filesystem::path stdout_path;  // appended to; empty: a pipe read through stdout_fd()
  std::filesystem::path stderr_path;  // appended to; empty: the same place as stdout
  bool stdin_pipe = false;            // false: /dev/null
};

// How a child ended, as far as the parent can tell.
struct ChildExit {
  enum class How { kExited, kSignaled, kTimedOut, kInterrupted };
  How how = How::kExited;
  int exit_code = -1;  // kExited only
  int signal = 0;      // kSignaled only
  double wall_s = 0;
};

using Clock = std::chrono::steady_clock;
class Deadline;  // batch/deadline.h

// A child in its own session and process group, so that a timeout or an interruption can kill
// everything it started, grandchildren included. The parent is expected to be a child
// subreaper (become_subreaper), so orphaned grandchildren come back to it and are reaped
// instead of lingering as zombies that keep the group alive.
class ChildProcess {
 public:
  explicit ChildProcess(const ChildSpec& spec);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_fd_; }
  int stdout_fd() const { return stdout_fd_; }
  void close_stdin();

  // Waits for the child to exit; once `deadline` passes or `stop` becomes true, kills its group
  // (SIGTERM, then SIGKILL after `grace_s`). Whatever the outcome, the group is gone after.
  ChildExit wait(Deadline& deadline, const std::atomic<bool>& stop, double grace_s);
  ChildExit wait(Clock::time_point deadline, const std::atomic<bool>& stop, double grace_s);

  // Kills the group now and reaps the child; `how` is what the caller decided happened.
  ChildExit kill(ChildExit::How how, double grace_s);

  // The child's exit, when it has already ended (reaped here); nullopt while it runs.
  std::optional<ChildExit> poll();

 private:
  void kill_group(double grace_s);
  void reap_group();
  ChildExit exit_from_status() const;

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::optional<int> status_;  // raw waitpid status once the leader is reaped
  bool group_gone_ = false;
  Clock::time_point started_;
};

// Makes orphaned descendants of this process reparent to it (PR_SET_CHILD_SUBREAPER), and
// ignores SIGPIPE so that writing to a dead worker is an error code, not a crash.
void prepare_parent_for_children();

std::string signal_name(int signal);

}  // namespace caliber
