#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend_descriptor.h"
#include "batch/batch_options.h"
#include "batch/op_selection.h"
#include "core/knobs.h"
#include "core/op_list.h"

namespace caliber {

// The batch's options resolved and validated before anything starts: knobs, backend, the
// device of each lane, the child executable and the knobs every child gets.
struct BatchPlan {
  BatchOptions options;
  Knobs knobs;
  const BackendDescriptor* backend = nullptr;
  std::vector<int> devices;              // one lane per entry
  Isolation isolation = Isolation::kOp;  // as given, else kDefaultIsolation
  std::filesystem::path out_dir;
  std::filesystem::path child_binary;
  FlagValues child_flags;  // knob name -> value, the same for every child of this batch
  // Set in every child's environment, after the lane's own variables (a warm pass's throwaway
  // tuned-config database).
  std::vector<std::pair<std::string, std::string>> child_env;
};

// The largest --warm-pass: warm lanes share one device's memory and host cores.
inline constexpr int kMaxWarmLanes = 16;

// The plan of `plan`'s warm pass (BatchOptions::warm_pass): warm_pass lanes on its first device,
// in workers, without retries, `--warm-only` for every child, FLAGGEMS_DB_URL at an in-memory
// SQLite database, into OUT/warm.
BatchPlan warm_pass_plan(const BatchPlan& plan);

// The knob names `caliber batch` accepts (every knob except the per-run ones it sets itself).
const std::vector<std::string>& batch_knob_names();

// Throws a usage error naming the flag for a bad value (knob, device list, missing binary).
BatchPlan plan_batch(const BatchOptions& options, const EnvLookup& env);

// The ops a batch's flags select (--ops with --ops-file's names added, --family, --level) and
// the dismiss list it honours (--dismiss-file, else ops/dismiss.yaml; none with --no-dismiss):
// read the same way by a local batch and by a Slurm sweep before it shards.
SelectionRequest selection_request_of(const BatchOptions& options);
OpList dismiss_list_of(const BatchOptions& options);

// The per-op timeout: fixed when --timeout-s is given, else base + per-case x cases, where an
// unknown shape count counts as kUnknownShapeCount shapes.
inline constexpr int kUnknownShapeCount = 10;
double op_timeout_s(const BatchOptions& options, int shape_count, size_t dtype_count);

}  // namespace caliber
