#include "cli/batch_merge.h"

#include <fmt/format.h>

#include "batch/shard_merge.h"
#include "batch/slurm_sweep.h"
#include "cli/terminal.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/knobs.h"
#include "report/run_collection.h"
#include "report/summary.h"

namespace caliber {

int merge_sweep(const std::filesystem::path& out) {
  SlurmLayout layout{std::filesystem::absolute(out).lexically_normal()};
  if (!std::filesystem::is_directory(layout.out)) {
    throw_usage("--merge: '{}' is not a directory (accepted: the --out of a Slurm sweep)",
                out.string());
  }
  SweepMergeLock lock(layout);
  SlurmClient client(process_env(), layout.slurm_dir(), /*need_sbatch=*/false);
  bool can_ask = client.has("squeue") || client.has("sacct") || client.has("scontrol");
  ShardMergeResult merged =
      merge_shards(layout, refresh_tasks(layout, can_ask ? &client : nullptr));
  std::vector<RunCollection> runs = {load_run_collection(layout.out.string())};
  write_file_atomic(layout.out / "summary.csv", summary_csv(runs));
  fmt::print("{}", summary_overview(runs, stdout_wants_color()));
  fmt::print("caliber batch: merged {} -> {}\n", merged.summary_line,
             (layout.out / "ops_status.csv").string());
  if (!merged.all_ok) {
    bool unfinished = false;
    for (const auto& [status, n] : merged.by_status) {
      unfinished = unfinished || status.rfind("task_", 0) == 0 || status == "pending" ||
                   status == "interrupted" || status == "not_run";
    }
    if (unfinished) {
      fmt::print(
          "  some shards did not finish: resubmit the same `caliber batch --launcher slurm` "
          "command to resume them\n");
    }
  }
  return merged.all_ok ? 0 : 1;
}

}  // namespace caliber
