#pragma once

#include <map>
#include <string>
#include <vector>

#include "batch/slurm_client.h"
#include "batch/slurm_script.h"

namespace caliber {

// The caliber fields every shard of one sweep must share: the compare gate's number-changing
// fields that hold for a whole batch (not the per-op shape digest and dtypes), plus the provider
// and the torch version, so that one merged view never mixes two ways of measuring.
const std::vector<std::string>& shard_caliber_fields();

// Columns the merged ops_status.csv adds to a batch's: where each op ran and under which task.
extern const char* const kMergedStatusExtraColumns;

struct ShardMergeResult {
  int shards = 0;
  int ops = 0;
  std::map<std::string, int> by_status;  // merged status -> ops
  bool all_ok = true;                    // every op ok or dismissed
  std::string summary_line;
};

// Held while a sweep's merge writes and is read back (slurm/.merge.lock): the launcher and the
// dependent merge job may merge at the same time.
class SweepMergeLock {
 public:
  explicit SweepMergeLock(const SlurmLayout& layout);
  ~SweepMergeLock();
  SweepMergeLock(const SweepMergeLock&) = delete;
  SweepMergeLock& operator=(const SweepMergeLock&) = delete;

 private:
  int fd_ = -1;
};

// Merges the shards of a sweep under `layout.out` into one batch directory view there:
// ops_status.csv (every shard's rows, with node and Slurm ids; ops of a task that Slurm ended
// early, by time limit, node failure or scancel, get the task's state, not an op failure),
// ops/<op> links into the shards, and batch_identity.json. `tasks`: the task that last ran each
// shard, as refresh_tasks() returns it. Throws a usage error naming the shard whose caliber
// differs from the others (nothing is written then). The caller holds a SweepMergeLock.
ShardMergeResult merge_shards(const SlurmLayout& layout, const std::map<int, SlurmTask>& tasks);

}  // namespace caliber
