#include "batch/parallel_warmup.h"

#include <algorithm>
#include <memory>

#include "batch/attempt_outcome.h"
#include "batch/child_command.h"
#include "batch/lane.h"
#include "batch/tuner_records.h"
#include "core/choice.h"

namespace caliber {

std::filesystem::path tuner_records_path(const std::filesystem::path& op_dir) {
  return op_dir / "tunableop_results.csv";
}

bool wants_parallel_warmup(const BatchPlan& plan, const OpEntry& op) {
  return plan.knobs.parallel_warmup_gpus > 0 && plan.knobs.level == Level::kComprehensive &&
         to_lower(op.family) == "blas";
}

bool run_parallel_warmup(const BatchPlan& plan, BatchDirectory& dir, const OpEntry& op,
                         const std::atomic<bool>& stop) {
  std::filesystem::path merged = tuner_records_path(dir.op_dir(op.name));
  if (std::filesystem::exists(merged)) return true;
  int shards =
      std::min<int>(plan.knobs.parallel_warmup_gpus, static_cast<int>(plan.devices.size()));
  int shard_shapes = op.shape_count > 0 ? (op.shape_count + shards - 1) / shards : 0;
  double timeout_s = op_timeout_s(plan.options, shard_shapes, op.dtypes.size());
  dir.log(fmt::format("warmup {}: tuner record pass in {} shard(s) on device(s) {}", op.name,
                      shards, fmt::join(plan.devices.begin(), plan.devices.begin() + shards, ",")));

  std::vector<RunRequest> requests;
  std::vector<std::unique_ptr<ChildProcess>> children;
  for (int i = 0; i < shards; ++i) {
    RunRequest r;
    r.op = op.name;
    r.out_dir = dir.op_dir(op.name) / "warmup" / fmt::format("shard-{}", i);
    r.log_path = r.out_dir / "child.log";
    r.tuner = "record";
    r.tuner_file = tuner_records_path(r.out_dir).string();
    r.shard = Shard{i, shards};
    r.timeout_s = timeout_s;
    std::filesystem::create_directories(r.out_dir);
    ChildSpec spec =
        lane_child_spec(plan, plan.devices[i],
                        run_argv(plan.child_binary, run_flags(plan.child_flags, r), r.shard));
    spec.stdout_path = r.log_path;
    children.push_back(std::make_unique<ChildProcess>(spec));
    requests.push_back(std::move(r));
  }
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_s));
  std::vector<std::filesystem::path> records;
  bool interrupted = false;
  for (int i = 0; i < shards; ++i) {
    ChildExit exit = children[i]->wait(deadline, stop, plan.options.kill_grace_s);
    AttemptOutcome outcome =
        classify_exit(exit, timeout_s, error_line_from_log(requests[i].log_path));
    interrupted = interrupted || outcome.state == OpState::kInterrupted;
    records.push_back(requests[i].tuner_file);
    dir.log(fmt::format("warmup {} shard {}/{}: {}{}", op.name, i, shards, to_string(outcome.state),
                        outcome.error.empty() ? "" : " (" + outcome.error + ")"));
  }
  if (interrupted) return false;
  // A failed shard leaves its shapes untuned; the measured pass still replays the rest.
  int found = merge_tunableop_files(records, merged);
  dir.log(fmt::format("warmup {}: merged {} of {} shard record file(s) into {}", op.name, found,
                      shards, merged.string()));
  return true;
}

}  // namespace caliber
