#include "batch/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <map>
#include <thread>

#include "batch/deadline.h"
#include "core/error.h"

extern char** environ;

namespace caliber {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);
// After SIGKILL the kernel needs a moment to tear the group down; longer means something is
// stuck in the kernel (uninterruptible sleep) and waiting more would not help.
constexpr double kAfterKillWaitS = 2.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int open_for_append(const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw Error(ErrorKind::kInternal,
                fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  }
  return fd;
}

std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& changes) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : changes) {
    if (value) {
      env[name] = *value;
    } else {
      env.erase(name);
    }
  }
  std::vector<std::string> out;
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

ChildProcess::ChildProcess(const ChildSpec& spec) {
  if (spec.argv.empty()) throw Error(ErrorKind::kInternal, "ChildProcess: empty argv");
  // Everything the child needs is prepared before fork: between fork and exec a threaded
  // parent's child may only make async-signal-safe calls.
  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = child_environment(spec.env);
  std::vector<char*> argv = c_strings(args);
  std::vector<char*> envp = c_strings(env);

  int in_pipe[2] = {-1, -1};
  int out_pipe[2] = {-1, -1};
  int stdin_src = -1;
  int stdout_dst = -1;
  int stderr_dst = -1;
  // The parent's copies of the child's ends; each descriptor is closed once.
  auto cleanup = [&] {
    if (stderr_dst != stdout_dst) close_fd(stderr_dst);
    if (stdout_dst != out_pipe[1]) close_fd(stdout_dst);
    if (stdin_src != in_pipe[0]) close_fd(stdin_src);
    for (int* fd : {&in_pipe[0], &in_pipe[1], &out_pipe[0], &out_pipe[1]}) close_fd(*fd);
  };
  try {
    if (spec.stdin_pipe) {
      if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
      stdin_src = in_pipe[0];
    } else {
      stdin_src = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    if (spec.stdout_path.empty()) {
      if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
      stdout_dst = out_pipe[1];
    } else {
      stdout_dst = open_for_append(spec.stdout_path);
    }
    stderr_dst = spec.stderr_path.empty() || spec.stderr_path == spec.stdout_path
                     ? stdout_dst
                     : open_for_append(spec.stderr_path);
  } catch (...) {
    cleanup();
    throw;
  }

  // Closed by a successful exec (O_CLOEXEC): until then the child may not be in its own
  // process group yet, and a kill of the group would miss it.
  int exec_sync[2] = {-1, -1};
  if (::pipe2(exec_sync, O_CLOEXEC) != 0) {
    cleanup();
    throw Error(ErrorKind::kInternal, fmt::format("pipe2 failed: {}", std::strerror(errno)));
  }
  pid_t parent = ::getpid();
  started_ = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    cleanup();
    ::close(exec_sync[0]);
    ::close(exec_sync[1]);
    throw Error(ErrorKind::kInternal, fmt::format("fork failed: {}", std::strerror(err)));
  }
  if (pid == 0) {
    ::setsid();
    // A batch killed with SIGKILL cannot clean up; its children must not outlive it and keep
    // writing into a directory that the next (resuming) batch owns.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(stdin_src, 0);
    ::dup2(stdout_dst, 1);
    ::dup2(stderr_dst, 2);
    // Ignored signals stay ignored across exec, and the mask is inherited: undo both.
    struct sigaction dfl;
    ::memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(argv[0], argv.data(), envp.data());
    const char message[] = "caliber batch: cannot execute the child binary\n";
    [[maybe_unused]] ssize_t n = ::write(2, message, sizeof(message) - 1);
    n = ::write(exec_sync[1], "x", 1);
    ::_exit(127);
  }
  ::close(exec_sync[1]);
  char sync_byte = 0;
  while (::read(exec_sync[0], &sync_byte, 1) < 0 && errno == EINTR) {
  }
  ::close(exec_sync[0]);
  pid_ = pid;
  stdin_fd_ = in_pipe[1];
  stdout_fd_ = out_pipe[0];
  in_pipe[1] = -1;
  out_pipe[0] = -1;
  cleanup();
}

ChildProcess::~ChildProcess() {
  if (!status_ || !group_gone_) kill_group(0.5);
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
}

void ChildProcess::close_stdin() { close_fd(stdin_fd_); }

void ChildProcess::reap_group() {
  // Reaps the leader and any orphaned grandchildren of this group that reparented to us.
  while (true) {
    int status = 0;
    pid_t reaped = ::waitpid(-pid_, &status, WNOHANG);
    if (reaped <= 0) {
      if (!status_) {
        // The leader may have left the group (it cannot, after setsid, but be safe).
        if (::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
      }
      return;
    }
    if (reaped == pid_) status_ = status;
  }
}

void ChildProcess::kill_group(double grace_s) {
  if (pid_ <= 0 || group_gone_) return;
  reap_group();
  auto group_alive = [this] { return ::kill(-pid_, 0) == 0 || errno != ESRCH; };
  if (!group_alive()) {
    group_gone_ = true;
    return;
  }
  ::kill(-pid_, SIGTERM);
  auto start = Clock::now();
  while (seconds_since(start) < grace_s) {
    reap_group();
    if (!group_alive()) break;
    std::this_thread::sleep_for(kPollInterval);
  }
  if (group_alive()) {
    ::kill(-pid_, SIGKILL);
    start = Clock::now();
    while (seconds_since(start) < kAfterKillWaitS) {
      reap_group();
      if (!group_alive()) break;
      std::this_thread::sleep_for(kPollInterval);
    }
  }
  reap_group();
  if (!status_) {
    int status = 0;
    if (::waitpid(pid_, &status, 0) == pid_) status_ = status;
  }
  group_gone_ = true;
}

ChildExit ChildProcess::exit_from_status() const {
  ChildExit out;
  out.wall_s = seconds_since(started_);
  if (status_ && WIFSIGNALED(*status_)) {
    out.how = ChildExit::How::kSignaled;
    out.signal = WTERMSIG(*status_);
  } else if (status_ && WIFEXITED(*status_)) {
    out.exit_code = WEXITSTATUS(*status_);
  }
  return out;
}

std::optional<ChildExit> ChildProcess::poll() {
  if (!status_) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
  }
  if (!status_) return std::nullopt;
  ChildExit out = exit_from_status();
  // The leader is gone; whatever it left behind in its group goes too.
  kill_group(0.5);
  return out;
}

ChildExit ChildProcess::wait(Deadline& deadline, const std::atomic<bool>& stop, double grace_s) {
  while (true) {
    if (auto done = poll()) return *done;
    if (stop.load()) return kill(ChildExit::How::kInterrupted, grace_s);
    if (deadline.passed()) return kill(ChildExit::How::kTimedOut, grace_s);
    std::this_thread::sleep_for(kPollInterval);
  }
}

ChildExit ChildProcess::wait(Clock::time_point deadline, const std::atomic<bool>& stop,
                             double grace_s) {
  Deadline fixed = Deadline::at(deadline);
  return wait(fixed, stop, grace_s);
}

ChildExit ChildProcess::kill(ChildExit::How how, double grace_s) {
  double wall = seconds_since(started_);
  kill_group(grace_s);
  ChildExit out = exit_from_status();
  out.how = how;
  out.wall_s = wall;
  return out;
}

void prepare_parent_for_children() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::signal(SIGPIPE, SIG_IGN);
}

std::string signal_name(int signal) {
  static const std::map<int, const char*> kNames = {
      {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
      {SIGHUP, "SIGHUP"},   {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}};
  auto it = kNames.find(signal);
  return it != kNames.end() ? it->second : fmt::format("signal {}", signal);
}

}  // namespace caliber
