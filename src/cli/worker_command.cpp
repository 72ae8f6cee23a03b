#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/run_command.h"
#include "core/error.h"
#include "core/write_failure.h"

namespace caliber {
namespace {

// Runs one request with the process's stdout and stderr pointed at the op's log, so that what
// `caliber run` prints never mixes with the answers on the protocol descriptor.
int run_redirected(const FlagValues& flags, const std::filesystem::path& log,
                   const EnvLookup& env) {
  if (log.has_parent_path()) std::filesystem::create_directories(log.parent_path());
  int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw_usage("worker: cannot open log '{}'", log.string());
  std::fflush(stdout);
  std::fflush(stderr);
  int saved_err = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::close(log_fd);
  int code = 0;
  try {
    code = execute_run(flags, env);
  } catch (const WriteFailure& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    code = kWriteFailureExitCode;
  } catch (const Error& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    code = exit_code_for(e.kind());
  } catch (const std::exception& e) {
    fmt::print(stderr, "caliber: internal error: {}\n", e.what());
    code = exit_code_for(ErrorKind::kInternal);
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(saved_err, STDERR_FILENO);
  ::dup2(saved_err, STDOUT_FILENO);
  ::close(saved_err);
  return code;
}

nlohmann::json answer(const std::string& line, const EnvLookup& env) {
  nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string() ||
      !request.contains("out") || !request["out"].is_string()) {
    return {{"op", ""}, {"exit", 2}, {"error", "a request is {\"op\", \"out\", \"flags\"}"}};
  }
  std::string op = request["op"];
  FlagValues flags;
  nlohmann::json knobs = request.value("flags", nlohmann::json::object());
  if (!knobs.is_object()) return {{"op", op}, {"exit", 2}, {"error", "\"flags\" is not an object"}};
  for (const auto& [name, value] : knobs.items()) {
    bool known = false;
    for (const auto& def : knob_table()) known = known || def.name == name;
    if (!known) return {{"op", op}, {"exit", 2}, {"error", "unknown knob '" + name + "'"}};
    flags[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  flags["op"] = op;
  flags["out_dir"] = request["out"].get<std::string>();
  std::filesystem::path log = request.value("log", "");
  if (log.empty()) log = std::filesystem::path(flags["out_dir"]) / "worker.log";
  try {
    return {{"op", op}, {"exit", run_redirected(flags, log, env)}};
  } catch (const WriteFailure& e) {
    return {{"op", op}, {"exit", kWriteFailureExitCode}, {"error", e.what()}};
  } catch (const Error& e) {
    return {{"op", op}, {"exit", exit_code_for(e.kind())}, {"error", e.what()}};
  }
}

bool write_line(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// `caliber worker`: the persistent worker of `caliber batch --isolation worker`. Reads one
// request per line on stdin, runs it in this process and answers one line on stdout. Exits at
// end of input, and after a device-fatal run (the device context cannot serve another op).
int serve_requests(const EnvLookup& env) {
  int reply_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  // Between requests anything printed goes to stderr, never into the answers.
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json reply = answer(line, env);
    // A run frees its samples and tensors, but glibc keeps freed heap pages mapped; handing them
    // back keeps the worker's resident set flat from op to op.
    ::malloc_trim(0);
    if (!write_line(reply_fd, reply.dump() + "\n")) return 1;
    if (reply["exit"].get<int>() == exit_code_for(ErrorKind::kDeviceFatal)) return reply["exit"];
  }
  return 0;
}

}  // namespace

void add_worker_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("worker", "Persistent worker of caliber batch (internal)");
  cmd->group("");  // hidden: only `caliber batch --isolation worker` starts it
  cmd->callback([&action] { action = [] { return serve_requests(process_env()); }; });
}

}  // namespace caliber
