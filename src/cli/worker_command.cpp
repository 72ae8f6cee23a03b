#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/run_command.h"
#include "core/error.h"
#include "core/std_streams.h"
#include "core/worker_protocol.h"
#include "core/write_failure.h"

namespace caliber {
namespace {

// Runs one request: `caliber run`'s output goes through its file sink into the op's log, and
// whatever else the process prints meanwhile (library warnings, a crash's last words) is pointed
// there too, never among the replies.
int run_into_log(const FlagValues& flags, const std::filesystem::path& log, const EnvLookup& env) {
  if (log.has_parent_path()) std::filesystem::create_directories(log.parent_path());
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(log.c_str(), "ae"), &std::fclose);
  if (!file) throw_usage("worker: cannot open log '{}'", log.string());
  StdStreamsToFile others(log);
  try {
    return execute_run(flags, env, RunOutput{.out = file.get()});
  } catch (const WriteFailure& e) {
    fmt::print(file.get(), "caliber: {}\n", e.what());
    return kWriteFailureExitCode;
  } catch (const Error& e) {
    fmt::print(file.get(), "caliber: {}\n", e.what());
    return exit_code_for(e.kind());
  } catch (const std::exception& e) {
    fmt::print(file.get(), "caliber: internal error: {}\n", e.what());
    return exit_code_for(ErrorKind::kInternal);
  }
}

WorkerReply answer(const std::string& line, const EnvLookup& env) {
  WorkerRequest request;
  try {
    request = parse_worker_request(line);
  } catch (const Error& e) {
    return {"", exit_code_for(e.kind()), e.what()};
  }
  const std::string& op = request.op;
  FlagValues flags = request.flags;
  for (const auto& [name, value] : flags) {
    bool known = false;
    for (const auto& def : knob_table()) known = known || def.name == name;
    if (!known) return {op, 2, "unknown knob '" + name + "'"};
  }
  flags["op"] = op;
  flags["out_dir"] = request.out_dir;
  std::filesystem::path log = request.log;
  if (log.empty()) log = std::filesystem::path(request.out_dir) / "worker.log";
  try {
    return {op, run_into_log(flags, log, env), ""};
  } catch (const WriteFailure& e) {
    return {op, kWriteFailureExitCode, e.what()};
  } catch (const Error& e) {
    return {op, exit_code_for(e.kind()), e.what()};
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
  // Between requests anything printed goes to stderr, never into the answers.
  int reply_fd = take_stdout_as_channel();
  using Clock = std::chrono::steady_clock;
  auto ms_between = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  };
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const Clock::time_point received = Clock::now();
    WorkerReply reply = answer(line, env);
    const Clock::time_point answered = Clock::now();
    // A run frees its samples and tensors, but glibc keeps freed heap pages mapped; handing them
    // back keeps the worker's resident set flat from op to op.
    ::malloc_trim(0);
    const Clock::time_point trimmed = Clock::now();
    // Into the worker's log (its stderr): what an op costs in the worker outside its run.log's
    // own `time:` line, which a screen of a thousand ops pays a thousand times.
    fmt::print(stderr, "worker: {} exit {}: answered in {:.1f} ms, heap trimmed in {:.1f} ms\n",
               reply.op.empty() ? "(no op)" : reply.op, reply.exit_code,
               ms_between(received, answered), ms_between(answered, trimmed));
    std::fflush(stderr);
    if (!write_line(reply_fd, worker_reply_line(reply))) return 1;
    if (reply.exit_code == exit_code_for(ErrorKind::kDeviceFatal)) return reply.exit_code;
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
