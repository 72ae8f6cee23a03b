#pragma once

#include <string>
#include <vector>

namespace caliber {

// Where `caliber batch` runs its ops: here, one lane per device, or as a Slurm job array over
// shards of the op list, each shard an ordinary local batch on the node Slurm chose.
enum class Launcher { kLocal, kSlurm };

// `caliber batch --launcher slurm`: how the job array is asked for.
struct SlurmOptions {
  int nodes = 1;          // --nodes: array size = number of shards
  int gpus_per_node = 0;  // --gpus-per-node: --gres=gpu:G per task; 0 asks for none
  std::string partition;
  std::string time_limit;                // per task, in sbatch's --time forms
  std::vector<std::string> sbatch_args;  // passed through to sbatch, as typed
  bool no_submit = false;                // write the scripts, print the sbatch command
  bool attach = false;                   // watch an earlier submission instead of submitting
};

}  // namespace caliber
