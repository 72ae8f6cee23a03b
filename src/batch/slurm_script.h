#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "batch/batch_options.h"
#include "batch/slurm_options.h"

namespace caliber {

// The files of a Slurm sweep under its --out:
//   slurm/plan.json              what was submitted: shard count, the shards' command, op lists
//   slurm/array.sbatch           the job array script (task i runs shard i)
//   slurm/merge.sbatch           the merge job (caliber batch --merge OUT)
//   slurm/submissions.jsonl      one line per sbatch call: job ids and array indices
//   slurm/tasks.csv              the array tasks as Slurm last reported them (job accounting)
//   slurm/logs/                  the tasks' and merge job's stdout/stderr
//   shards/<i>/                  shard i: an ordinary batch directory
//   ops/<op> -> shards/<i>/ops/<op>, ops_status.csv, summary.csv, batch_identity.json: the merge
struct SlurmLayout {
  std::filesystem::path out;  // absolute
  std::filesystem::path slurm_dir() const { return out / "slurm"; }
  std::filesystem::path plan_path() const { return slurm_dir() / "plan.json"; }
  std::filesystem::path array_script() const { return slurm_dir() / "array.sbatch"; }
  std::filesystem::path merge_script() const { return slurm_dir() / "merge.sbatch"; }
  std::filesystem::path submissions_path() const { return slurm_dir() / "submissions.jsonl"; }
  std::filesystem::path tasks_path() const { return slurm_dir() / "tasks.csv"; }
  std::filesystem::path log_dir() const { return slurm_dir() / "logs"; }
  std::filesystem::path shard_dir(int index) const {
    return out / "shards" / std::to_string(index);
  }
};

// The arguments every shard's `caliber batch` gets besides --shard and --out: the knobs and batch
// flags of `options` as typed, with paths made absolute (a task may start elsewhere).
std::vector<std::string> shard_batch_args(const BatchOptions& options);

struct SlurmScriptInput {
  std::filesystem::path binary;   // the caliber executable, by a path every node sees
  std::filesystem::path workdir;  // the submission directory (relative knob paths resolve there)
  SlurmLayout layout;
  SlurmOptions slurm;
  std::vector<std::string> shard_args;
};

// The job array script: task i runs `caliber batch --shard i/N --out OUT/shards/i ARGS`, on the
// GPUs Slurm gave it (the visibility variable Slurm set is left alone). --array is not in it:
// each submission names the shards still to run.
std::string array_script(const SlurmScriptInput& input);
// The merge job's script: `caliber batch --merge OUT`.
std::string merge_script(const SlurmScriptInput& input);

// "0-2,5,7-8" for {0, 1, 2, 5, 7, 8}.
std::string array_ranges(const std::vector<int>& indices);

// Quoted for a POSIX shell when it needs to be.
std::string shell_quote(const std::string& text);

// Accepts sbatch's --time forms: MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, UNLIMITED.
bool valid_time_limit(const std::string& text);

}  // namespace caliber
