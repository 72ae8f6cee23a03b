#pragma once

#include <filesystem>

namespace caliber {

// `caliber batch --merge OUT`: merges a Slurm sweep's shards into OUT (batch layer), then writes
// OUT/summary.csv and prints the merged summary (report layer). Returns 0 when every op is ok or
// dismissed, 1 otherwise; a shard of another caliber is refused (exit 2).
int merge_sweep(const std::filesystem::path& out);

}  // namespace caliber
