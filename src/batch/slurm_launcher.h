#pragma once

#include <filesystem>
#include <functional>

#include "batch/batch_options.h"
#include "batch/slurm_options.h"
#include "core/knobs.h"

namespace caliber {

// Merges a sweep's shards into its --out and shows the merged summary; returns the exit code
// (0 every op ok, 1 otherwise). Given by the CLI, which owns the report layer's summary.
using SweepMerge = std::function<int(const std::filesystem::path& out)>;

// `caliber batch --launcher slurm`: validates everything (exit 2 before anything is submitted),
// splits the selected ops into --nodes shards by their stable hash, writes the job array script
// and the merge job's under OUT/slurm/, submits the array for the shards not yet complete (and
// not still queued) plus a merge job after it, then shows each task's state and the shards'
// progress until every task has ended, and merges. Ctrl-C leaves the jobs running and says how
// to reattach or cancel (exit 130). With slurm.attach it only watches and merges an earlier
// submission in `attach_out`; with slurm.no_submit it writes the scripts and prints the sbatch
// commands.
int run_slurm_batch(const BatchOptions& options, const SlurmOptions& slurm,
                    const std::filesystem::path& attach_out, const EnvLookup& env,
                    const SweepMerge& merge);

}  // namespace caliber
