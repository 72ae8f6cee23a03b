#pragma once

// Runs the real `caliber batch` in a temporary directory, with the fake child of data/ standing
// in for `caliber run` (or the real binary, for the selftest suite), and reads what it left.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/atomic_file.h"
#include "core/ops_status.h"

namespace caliber::testing {

// tests/batch/data (CALIBER_TEST_DATA names the suite-wide tests/data).
inline std::filesystem::path batch_data_dir() {
  return std::filesystem::path(CALIBER_SOURCE_DIR) / "tests" / "batch" / "data";
}

inline std::filesystem::path fresh_temp_dir(const std::string& name) {
  std::random_device random;
  auto dir =
      std::filesystem::temp_directory_path() /
      ("caliber-batch-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
  std::filesystem::create_directories(dir);
  return dir;
}

// A process counts as gone once it has exited, even while it waits to be reaped (zombie).
inline bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  size_t paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] != 'Z';
}

// True while any live (non-zombie) process is in process group `pgid`.
inline bool group_alive(pid_t pgid) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    size_t paren = text.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream rest(text.substr(paren + 2));
    std::string state;
    pid_t ppid = 0;
    pid_t group = 0;
    rest >> state >> ppid >> group;
    if (group == pgid && state != "Z") return true;
  }
  return false;
}

template <typename Predicate>
bool wait_for(Predicate done, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(int(seconds * 1000));
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

class BatchHarness {
 public:
  // `fake_child`: run the batch against data/fake_caliber.sh instead of the real binary.
  explicit BatchHarness(const std::string& name, bool fake_child = true)
      : dir_(fresh_temp_dir(name)) {
    std::filesystem::create_directories(state_dir());
    env_["CALIBER_SELFTEST"] = "1";
    env_["CALIBER_SELFTEST_STATE"] = state_dir().string();
    env_["FAKE_CALIBER_LOG"] = calls_path().string();
    if (fake_child) env_["CALIBER_CHILD_BINARY"] = (batch_data_dir() / "fake_caliber.sh").string();
  }
  ~BatchHarness() {
    if (std::getenv("CALIBER_KEEP_TEST_DIRS") != nullptr) return;  // to look at after a failure
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::filesystem::path dir() const { return dir_; }
  std::filesystem::path out() const { return dir_ / "out"; }
  std::filesystem::path state_dir() const { return dir_ / "state"; }
  std::filesystem::path calls_path() const { return dir_ / "calls.log"; }
  std::string output() const { return read_or_empty(dir_ / "output.txt"); }
  void set_env(const std::string& name, const std::string& value) { env_[name] = value; }

  // `caliber batch --backend cpu --out OUT --no-progress --kill-grace-s 0.3 ARGS...`
  pid_t start(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {CALIBER_BINARY,  "batch",          "--backend",
                                     "cpu",           "--out",          out().string(),
                                     "--no-progress", "--kill-grace-s", "0.3"};
    // The driver's tests exercise a process per op unless they ask for workers (the default).
    if (std::find(args.begin(), args.end(), "--isolation") == args.end()) {
      argv.insert(argv.end(), {"--isolation", "op"});
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return spawn(argv);
  }

  pid_t spawn(const std::vector<std::string>& args) const {
    std::string output_path = (dir_ / "output.txt").string();
    pid_t pid = ::fork();
    if (pid == 0) {
      for (const auto& [name, value] : env_) ::setenv(name.c_str(), value.c_str(), 1);
      FILE* out = std::freopen(output_path.c_str(), "a", stdout);
      if (out != nullptr) ::dup2(STDOUT_FILENO, STDERR_FILENO);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return pid;
  }

  // Exit code, or 128 + signal when killed.
  static int wait(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  }

  int run(const std::vector<std::string>& args) const { return wait(start(args)); }

  std::map<std::string, OpStatus> status() const {
    std::map<std::string, OpStatus> out;
    for (auto& row : parse_status_csv(read_or_empty(this->out() / "ops_status.csv"))) {
      out[row.op] = row;
    }
    return out;
  }

  // Lines of the fake child's call log that start with `prefix` (e.g. "run op=ok_a ").
  std::vector<std::string> calls(const std::string& prefix) const {
    std::vector<std::string> out;
    std::istringstream in(read_or_empty(calls_path()));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(prefix, 0) == 0) out.push_back(line);
    }
    return out;
  }

  // The value of `key=` in a call log line.
  static std::string field(const std::string& line, const std::string& key) {
    size_t at = line.find(" " + key + "=");
    if (at == std::string::npos) return "";
    at += key.size() + 2;
    return line.substr(at, line.find(' ', at) - at);
  }

  int complete_markers() const {
    int n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(out() / "ops", ec)) {
      if (e.path().filename() == ".complete") ++n;
    }
    return n;
  }

  static std::string read_or_empty(const std::filesystem::path& path) {
    return std::filesystem::exists(path) ? read_file(path) : "";
  }

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::string> env_;
};

}  // namespace caliber::testing
