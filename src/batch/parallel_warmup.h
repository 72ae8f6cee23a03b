#pragma once

#include <atomic>
#include <filesystem>

#include "batch/batch_directory.h"
#include "batch/batch_plan.h"
#include "batch/op_catalog.h"

namespace caliber {

// The tuner records file of an op in a batch directory: what a record pass writes and what a
// later batch's --replay-from reads.
std::filesystem::path tuner_records_path(const std::filesystem::path& op_dir);

// PARALLEL_WARMUP_GPUS=N at level comprehensive: a BLAS op's tuner record pass is split into
// N shards (`--shard i/N`), one per device, before its measured pass.
bool wants_parallel_warmup(const BatchPlan& plan, const OpEntry& op);

// Runs the sharded record pass of `op` on the first N devices at once and merges the shards'
// records into tuner_records_path(op dir). Skipped when the merged file already exists (a
// resumed batch). Returns false when interrupted.
bool run_parallel_warmup(const BatchPlan& plan, BatchDirectory& dir, const OpEntry& op,
                         const std::atomic<bool>& stop);

}  // namespace caliber
