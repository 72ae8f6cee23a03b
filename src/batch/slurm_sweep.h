#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/slurm_client.h"
#include "batch/slurm_script.h"

namespace caliber {

// What a Slurm sweep was asked to do (slurm/plan.json): a resubmission must ask the same, or
// shards measured with other knobs would end up in one directory.
struct SweepPlan {
  int shards = 1;
  std::string binary;
  std::string workdir;
  std::vector<std::string> shard_args;
  std::string command_line;
  std::vector<std::vector<std::string>> shard_ops;  // per shard: ops to run, then dismissed ones
  std::vector<int> shard_to_run;                    // per shard: how many of them run
};

std::optional<SweepPlan> read_sweep_plan(const SlurmLayout& layout);
void write_sweep_plan(const SlurmLayout& layout, const SweepPlan& plan);

// One sbatch call of the array: which shards it ran, and the merge job that follows it.
struct Submission {
  std::string array_job_id;
  std::vector<int> shards;
  std::string merge_job_id;
  std::string time;
};

std::vector<Submission> read_submissions(const SlurmLayout& layout);
void append_submission(const SlurmLayout& layout, const Submission& submission);

// slurm/tasks.csv: every array task Slurm reported, kept across queries (sacct may be off and
// the controller forgets finished jobs after MinJobAge).
std::vector<SlurmTask> read_task_records(const SlurmLayout& layout);
void write_task_records(const SlurmLayout& layout, const std::vector<SlurmTask>& tasks);

// Asks Slurm about every submission of the sweep, merges the answer into slurm/tasks.csv and
// returns the task that last ran (or will run) each shard: the one of the latest submission
// that included it.
std::map<int, SlurmTask> refresh_tasks(const SlurmLayout& layout, const SlurmClient* client);

// A shard's batch as its files show it.
struct ShardProgress {
  bool started = false;   // its ops_status.csv exists
  bool complete = false;  // its last run ended with every op final (exit 0 or 1)
  int done = 0;           // ops in a final state
  int total = 0;          // rows of its ops_status.csv
};
ShardProgress shard_progress(const SlurmLayout& layout, int shard);

}  // namespace caliber
