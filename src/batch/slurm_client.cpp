#include "batch/slurm_client.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <set>

#include "batch/child_process.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text_util.h"

namespace caliber {
namespace {

constexpr double kQueryTimeoutS = 60;
constexpr double kSubmitTimeoutS = 120;

int task_index(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoi(text);
}

// "CANCELLED by 0" -> "CANCELLED"; "COMPLETING" stays.
std::string bare_state(const std::string& text) { return trim(text.substr(0, text.find(' '))); }

std::string read_or_empty(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) ? read_file(path) : std::string();
}

}  // namespace

bool task_active(const std::string& state) {
  static const std::set<std::string> active = {
      "PENDING",      "RUNNING",  "CONFIGURING", "COMPLETING", "REQUEUED",  "REQUEUE_FED",
      "REQUEUE_HOLD", "RESIZING", "SUSPENDED",   "STAGE_OUT",  "SIGNALING", "STOPPED"};
  return active.count(state) > 0;
}

std::vector<SlurmTask> parse_squeue(const std::string& text) {
  std::vector<SlurmTask> out;
  for (const auto& line : split(text, '\n')) {
    std::vector<std::string> f = split(trim(line), '|');
    if (f.size() < 5) continue;
    SlurmTask t;
    t.array_job_id = trim(f[0]);
    t.task = task_index(trim(f[1]));
    t.job_id = trim(f[2]);
    t.state = bare_state(f[3]);
    t.node = trim(f[4]);
    t.source = "squeue";
    if (t.task >= 0) out.push_back(t);
  }
  return out;
}

std::vector<SlurmTask> parse_sacct(const std::string& text) {
  std::vector<SlurmTask> out;
  for (const auto& line : split(text, '\n')) {
    std::vector<std::string> f = split(trim(line), '|');
    if (f.size() < 5) continue;
    size_t underscore = f[0].find('_');
    if (underscore == std::string::npos) continue;
    SlurmTask t;
    t.array_job_id = f[0].substr(0, underscore);
    t.task = task_index(f[0].substr(underscore + 1));  // "12_[3-5]" (still pending) is skipped
    t.job_id = f[1];
    t.state = bare_state(f[2]);
    t.node = f[3] == "None assigned" ? "" : f[3];
    t.exit_code = f[4];
    t.source = "sacct";
    if (t.task >= 0) out.push_back(t);
  }
  return out;
}

std::vector<SlurmTask> parse_scontrol_jobs(const std::string& text) {
  std::vector<SlurmTask> out;
  for (const auto& line : split(text, '\n')) {
    std::map<std::string, std::string> kv;
    for (const auto& word : split(trim(line), ' ')) {
      size_t eq = word.find('=');
      if (eq != std::string::npos) kv[word.substr(0, eq)] = word.substr(eq + 1);
    }
    if (!kv.count("ArrayJobId") || !kv.count("ArrayTaskId")) continue;
    SlurmTask t;
    t.array_job_id = kv["ArrayJobId"];
    t.task = task_index(kv["ArrayTaskId"]);
    t.job_id = kv["JobId"];
    t.state = kv["JobState"];
    t.node = kv["NodeList"] == "(null)" ? "" : kv["NodeList"];
    t.exit_code = kv["ExitCode"];
    t.source = "scontrol";
    if (t.task >= 0) out.push_back(t);
  }
  return out;
}

std::optional<std::filesystem::path> find_on_path(const std::string& name, const EnvLookup& env) {
  for (const auto& dir : split_nonempty(env("PATH").value_or(""), ':')) {
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
      return std::filesystem::absolute(candidate);
    }
  }
  return std::nullopt;
}

SlurmClient::SlurmClient(const EnvLookup& env, std::filesystem::path scratch, bool need_sbatch)
    : scratch_(std::move(scratch)) {
  for (const char* name : {"sbatch", "squeue", "sacct", "scontrol", "sinfo"}) {
    if (auto path = find_on_path(name, env)) programs_[name] = *path;
  }
  if (need_sbatch && !has("sbatch")) {
    throw_usage(
        "--launcher slurm: no sbatch on PATH (PATH={}); load Slurm's module or run on a host "
        "that submits jobs, or use --no-submit to write the script only",
        env("PATH").value_or(""));
  }
}

std::filesystem::path SlurmClient::sbatch() const { return programs_.at("sbatch"); }

SlurmClient::Output SlurmClient::run(const std::string& program,
                                     const std::vector<std::string>& args, double timeout_s) const {
  Output result;
  auto found = programs_.find(program);
  if (found == programs_.end()) return result;
  static std::atomic<int> serial{0};
  std::filesystem::create_directories(scratch_);
  std::string stem = fmt::format(".{}-{}-{}", program, ::getpid(), serial.fetch_add(1));
  ChildSpec spec;
  spec.argv = {found->second.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.stdout_path = scratch_ / (stem + ".out");
  spec.stderr_path = scratch_ / (stem + ".err");
  std::atomic<bool> never{false};
  {
    ChildProcess child(spec);
    auto deadline = Clock::now() + std::chrono::seconds(static_cast<int>(timeout_s));
    ChildExit exit = child.wait(deadline, never, 1.0);
    if (exit.how == ChildExit::How::kExited) result.exit_code = exit.exit_code;
  }
  result.out = read_or_empty(spec.stdout_path);
  result.err = trim(read_or_empty(spec.stderr_path));
  std::error_code ec;
  std::filesystem::remove(spec.stdout_path, ec);
  std::filesystem::remove(spec.stderr_path, ec);
  return result;
}

std::string SlurmClient::submit(const std::vector<std::string>& args) const {
  std::vector<std::string> all = {"--parsable"};
  all.insert(all.end(), args.begin(), args.end());
  Output o = run("sbatch", all, kSubmitTimeoutS);
  std::string id = trim(o.out.substr(0, o.out.find(';')));  // "123;cluster" on federations
  if (o.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw_usage("sbatch {} refused the job (exit {}): {}", fmt::join(all, " "), o.exit_code,
                one_line(o.err.empty() ? o.out : o.err));
  }
  return id;
}

std::vector<SlurmTask> SlurmClient::tasks(const std::vector<std::string>& array_job_ids) const {
  std::vector<SlurmTask> out;
  if (array_job_ids.empty()) return out;
  std::string ids = fmt::format("{}", fmt::join(array_job_ids, ","));
  std::set<std::pair<std::string, int>> seen;
  auto add = [&](const std::vector<SlurmTask>& found) {
    for (const auto& t : found) {
      if (std::find(array_job_ids.begin(), array_job_ids.end(), t.array_job_id) ==
          array_job_ids.end()) {
        continue;
      }
      if (seen.insert({t.array_job_id, t.task}).second) out.push_back(t);
    }
  };
  // squeue refuses a list that holds a job it no longer knows: ask per job then.
  Output q = run("squeue", {"-h", "-r", "-j", ids, "-o", "%F|%K|%A|%T|%N"}, kQueryTimeoutS);
  if (q.exit_code == 0) {
    add(parse_squeue(q.out));
  } else {
    for (const auto& id : array_job_ids) {
      Output one = run("squeue", {"-h", "-r", "-j", id, "-o", "%F|%K|%A|%T|%N"}, kQueryTimeoutS);
      if (one.exit_code == 0) add(parse_squeue(one.out));
    }
  }
  Output a =
      run("sacct", {"-n", "-P", "-X", "-j", ids, "-o", "JobID,JobIDRaw,State,NodeList,ExitCode"},
          kQueryTimeoutS);
  if (a.exit_code == 0) add(parse_sacct(a.out));
  for (const auto& id : array_job_ids) {
    Output s = run("scontrol", {"-o", "show", "job", id}, kQueryTimeoutS);
    if (s.exit_code == 0) add(parse_scontrol_jobs(s.out));
  }
  return out;
}

std::optional<int> SlurmClient::max_array_size() const {
  Output o = run("scontrol", {"show", "config"}, kQueryTimeoutS);
  if (o.exit_code != 0) return std::nullopt;
  for (const auto& line : split(o.out, '\n')) {
    std::vector<std::string> kv = split(line, '=');
    if (kv.size() == 2 && trim(kv[0]) == "MaxArraySize") {
      int value = task_index(trim(kv[1]));
      if (value >= 0) return value;
    }
  }
  return std::nullopt;
}

std::vector<std::string> SlurmClient::partition_nodes(const std::string& partition) const {
  std::vector<std::string> args = {"-h", "-N", "-o", "%N|%P"};
  if (!partition.empty()) {
    args.push_back("-p");
    args.push_back(partition);
  }
  Output o = run("sinfo", args, kQueryTimeoutS);
  std::set<std::string> nodes;
  for (const auto& line : split(o.out, '\n')) {
    std::vector<std::string> f = split(trim(line), '|');
    if (f.size() < 2 || f[0].empty()) continue;
    // Without -p, only the default partition (marked '*') counts.
    if (partition.empty() && f[1].find('*') == std::string::npos) continue;
    nodes.insert(f[0]);
  }
  return {nodes.begin(), nodes.end()};
}

}  // namespace caliber
