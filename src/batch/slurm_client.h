#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/knobs.h"

namespace caliber {

// One array task as Slurm reports it.
struct SlurmTask {
  std::string array_job_id;
  int task = -1;          // the array index = the shard
  std::string job_id;     // the task's own job id
  std::string state;      // PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, ...
  std::string node;       // empty while pending
  std::string exit_code;  // "0:0"
  std::string source;     // squeue, sacct or scontrol
};

// True while Slurm may still run the task (it is queued, running or being requeued).
bool task_active(const std::string& state);

// Parsers of the outputs the client asks for (pure, for tests).
// squeue -h -r -o '%F|%K|%A|%T|%N'
std::vector<SlurmTask> parse_squeue(const std::string& text);
// sacct -n -P -X -o JobID,JobIDRaw,State,NodeList,ExitCode
std::vector<SlurmTask> parse_sacct(const std::string& text);
// scontrol -o show job ID (one line of Key=Value per task)
std::vector<SlurmTask> parse_scontrol_jobs(const std::string& text);

// A program found on PATH (absolute), or nullopt.
std::optional<std::filesystem::path> find_on_path(const std::string& name, const EnvLookup& env);

// Talks to Slurm through its commands (sbatch, squeue, sacct, scontrol), each under a timeout,
// never through a library: the batch layer starts processes and reads files.
class SlurmClient {
 public:
  // `scratch`: where command output is captured. Throws a usage error when sbatch is not on PATH
  // and `need_sbatch`.
  SlurmClient(const EnvLookup& env, std::filesystem::path scratch, bool need_sbatch);

  bool has(const std::string& program) const { return programs_.count(program) > 0; }
  std::filesystem::path sbatch() const;

  // Runs sbatch --parsable ARGS; returns the job id. Throws a usage error with sbatch's words
  // when it refuses (nothing was submitted then).
  std::string submit(const std::vector<std::string>& args) const;

  // Every task Slurm still knows of the given array jobs: live ones from squeue, finished ones
  // from sacct, or from scontrol where accounting is off (while the controller keeps them).
  std::vector<SlurmTask> tasks(const std::vector<std::string>& array_job_ids) const;

  // MaxArraySize from `scontrol show config`; nullopt when it cannot be read.
  std::optional<int> max_array_size() const;
  // Node names of `partition` (the default partition when empty); empty when unknown.
  std::vector<std::string> partition_nodes(const std::string& partition) const;

  struct Output {
    int exit_code = -1;  // -1: did not run or timed out
    std::string out;
    std::string err;
  };
  Output run(const std::string& program, const std::vector<std::string>& args,
             double timeout_s) const;

 private:
  std::filesystem::path scratch_;
  std::map<std::string, std::filesystem::path> programs_;
};

}  // namespace caliber
