#include "batch/batch_driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "batch/attempt_outcome.h"
#include "batch/batch_directory.h"
#include "batch/batch_plan.h"
#include "batch/child_process.h"
#include "batch/interrupt.h"
#include "batch/lane.h"
#include "batch/op_costs.h"
#include "batch/op_runner.h"
#include "batch/parallel_warmup.h"
#include "batch/progress_line.h"
#include "batch/slurm_task_env.h"
#include "batch/work_queue.h"
#include "core/atomic_file.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/file_tree.h"
#include "core/flaggems_record.h"
#include "core/op_run_dirs.h"
#include "core/run_identity.h"
#include "core/version.h"
#include "core/write_failure.h"

namespace caliber {
namespace {

constexpr double kOpsListingTimeoutS = 120;
constexpr auto kProgressInterval = std::chrono::milliseconds(200);

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Asks the child binary for its op catalog (`caliber ops --json`). Ops named on the command line
// can run without it; a whole-corpus batch cannot.
std::vector<OpEntry> list_ops(const BatchPlan& plan, BatchDirectory& dir, bool required) {
  std::filesystem::path json_path = dir.root() / "ops_catalog.json";
  std::filesystem::path log_path = dir.root() / "ops_catalog.log";
  std::filesystem::remove(json_path);
  std::filesystem::remove(log_path);
  ChildSpec spec;
  spec.argv = {plan.child_binary.string(),  "ops",       "--json",          "--level",
               to_string(plan.knobs.level), "--backend", plan.backend->name};
  // SHAPE_MODE=upstream finds its shapes through the candidate.
  if (!plan.knobs.candidate.empty()) {
    spec.argv.insert(spec.argv.end(), {"--candidate", plan.knobs.candidate});
  }
  spec.stdout_path = json_path;
  spec.stderr_path = log_path;
  ChildProcess child(spec);
  auto deadline = Clock::now() + std::chrono::seconds(static_cast<int>(kOpsListingTimeoutS));
  AttemptOutcome outcome = classify_exit(child.wait(deadline, interrupt_requested(), 1.0),
                                         kOpsListingTimeoutS, error_line_from_log(log_path));
  std::string why;
  if (outcome.state == OpState::kOk) {
    try {
      return parse_op_catalog(read_file(json_path));
    } catch (const Error& e) {
      why = e.what();
    }
  } else {
    why = fmt::format("{}: {}", to_string(outcome.state), outcome.error);
  }
  if (required) {
    throw_usage("cannot list the ops to run: `{} ops --json` failed ({}); name them with --ops",
                plan.child_binary.string(), why);
  }
  dir.log(
      fmt::format("ops listing failed ({}); running the named ops without their metadata", why));
  return {};
}

nlohmann::json identity_json(const BatchPlan& plan, const Selection& selection) {
  nlohmann::json dismissed = nlohmann::json::array();
  for (const auto& [op, entry] : selection.dismissed) {
    dismissed.push_back(
        {{"op", op.name}, {"reason", entry.reason}, {"verified_on", entry.verified_on}});
  }
  const BatchOptions& o = plan.options;
  return {{"harness_version", harness_version()},
          {"host", host_name()},
          {"command_line", o.command_line},
          {"start_time", utc_now_iso8601()},
          {"end_time", nullptr},
          {"backend", plan.backend->name},
          {"visibility_variable", plan.backend->visibility_variable},
          {"devices", plan.devices},
          {"isolation", to_string(plan.isolation)},
          {"retries", o.retries},
          {"timeout",
           {{"fixed_s", o.timeout_s},
            {"base_s", o.timeout_base_s},
            {"per_case_s", o.timeout_per_case_s},
            {"stretch", o.timeout_stretch},
            {"kill_grace_s", o.kill_grace_s}}},
          {"child_binary", plan.child_binary.string()},
          {"child_flags", plan.child_flags},
          {"replay_from", plan.knobs.replay_from},
          {"parallel_warmup_gpus", plan.knobs.parallel_warmup_gpus},
          {"warm_pass", o.warm_pass},
          {"selected", selection.ops.size()},
          {"dismissed", dismissed}};
}

// A resumed batch must be the same batch: other knobs would mix two calibers in one directory.
void check_resumable(const BatchDirectory& dir, const nlohmann::json& identity) {
  if (!std::filesystem::exists(dir.identity_path())) return;
  nlohmann::json earlier = nlohmann::json::parse(read_file(dir.identity_path()), nullptr, false);
  if (earlier.is_discarded()) return;
  for (const char* key : {"child_flags", "replay_from", "parallel_warmup_gpus", "shard"}) {
    if (earlier.value(key, nlohmann::json()) != identity[key]) {
      throw_usage(
          "--out: '{}' holds a batch run with other knobs ({}: {} there, {} now); resume it with "
          "the same command, start over with --force, or choose another --out",
          dir.root().string(), key, earlier.value(key, nlohmann::json()).dump(),
          identity[key].dump());
    }
  }
}

// Clears what an unfinished attempt left in an op directory, so that a resumed op neither
// appends to nor mixes with rows of a run that never completed. Warmup records survive unless
// the op is redone from scratch. Returns how many entries it removed.
size_t reset_op_dir(const std::filesystem::path& op_dir, bool keep_warmup) {
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (const auto& entry : std::filesystem::directory_iterator(op_dir, ec)) {
    std::string name = entry.path().filename().string();
    if (keep_warmup && (name == "warmup" || entry.path() == tuner_records_path(op_dir))) continue;
    stale.push_back(entry.path());
  }
  // Removed once the listing is done: the directory is not read while it changes.
  for (const auto& path : stale) remove_tree(path, ec);
  return stale.size();
}

class BatchSession {
 public:
  BatchSession(BatchPlan plan, BatchDirectory& dir, Selection selection, OpCosts costs)
      : plan_(std::move(plan)),
        dir_(dir),
        selection_(std::move(selection)),
        costs_(std::move(costs)) {}

  int run() {
    prepare_rows();
    write_status();
    run_warmups();
    run_lanes();
    return finish();
  }

 private:
  void prepare_rows() {
    for (const auto& op : selection_.ops) {
      std::optional<OpStatus> done = plan_.options.force ? std::nullopt : dir_.completed(op.name);
      if (done && plan_.options.redo_failed && is_failure(done->state)) done.reset();
      if (done) {
        rows_.push_back(*done);
        continue;
      }
      dir_.clear_complete(op.name);
      if (size_t cleared = reset_op_dir(dir_.op_dir(op.name), !plan_.options.force); cleared > 0) {
        dir_.log(fmt::format("{}: cleared {} entries an unfinished run left; it runs again",
                             op.name, cleared));
      }
      OpStatus pending;
      pending.op = op.name;
      pending.backend = plan_.backend->name;
      rows_.push_back(pending);
      todo_.push_back(rows_.size() - 1);
    }
    for (const auto& [op, entry] : selection_.dismissed) {
      OpStatus row;
      row.op = op.name;
      row.state = OpState::kDismissed;
      row.backend = plan_.backend->name;
      row.error = entry.reason + (entry.verified_on.empty() ? "" : " (" + entry.verified_on + ")");
      rows_.push_back(row);
    }
    dir_.log(fmt::format("{} op(s) selected, {} already complete, {} to run, {} dismissed",
                         selection_.ops.size(), selection_.ops.size() - todo_.size(), todo_.size(),
                         selection_.dismissed.size()));
  }

  void run_warmups() {
    for (size_t row : todo_) {
      const OpEntry& op = selection_.ops[row];
      if (!wants_parallel_warmup(plan_, op) || interrupt_requested().load()) continue;
      if (!plan_.knobs.replay_from.empty() &&
          std::filesystem::exists(tuner_records_path(
              std::filesystem::path(plan_.knobs.replay_from) / "ops" / op.name))) {
        continue;  // an earlier batch's records replace the record pass
      }
      run_parallel_warmup(plan_, dir_, op, interrupt_requested());
    }
  }

  void run_lanes() {
    std::vector<std::string> names;
    for (size_t row : todo_) names.push_back(rows_[row].op);
    std::vector<double> costs = expected_costs(names, costs_);
    if (costs.empty()) {
      dir_.log("order: as selected");
    } else {
      size_t known = 0;
      for (const std::string& op : names) known += costs_.wall_s.count(op);
      dir_.log(
          fmt::format("order: longest first per lane, by the wall times in {} ({} of {} ops "
                      "known, the others at the median)",
                      costs_.source, known, names.size()));
    }
    WorkQueue queue(names, plan_.devices.size(), costs);
    OpRunner runner(plan_, dir_, interrupt_requested());
    std::atomic<size_t> lanes_left{plan_.devices.size()};
    std::vector<std::thread> threads;
    start_ = Clock::now();
    for (size_t lane_index = 0; lane_index < plan_.devices.size(); ++lane_index) {
      threads.emplace_back([&, lane_index] {
        try {
          // The lane (and so its worker) lives in this thread: children die with the thread
          // that started them (PR_SET_PDEATHSIG), which must outlive them.
          Lane lane(plan_, plan_.devices[lane_index], interrupt_requested(),
                    [this](const std::string& line) { dir_.log(line); });
          while (!interrupt_requested().load()) {
            std::optional<size_t> next = queue.next(lane_index);
            if (!next) break;
            run_one(runner, lane, todo_[*next]);
          }
        } catch (const WriteFailure& e) {
          stop_for_write_failure(e.what());
        }
        lanes_left.fetch_sub(1);
      });
    }
    ProgressLine progress(plan_.options.progress);
    while (lanes_left.load() > 0) {
      progress.update(counts(), seconds_since(start_));
      std::this_thread::sleep_for(kProgressInterval);
    }
    for (auto& t : threads) t.join();
    progress.update(counts(), seconds_since(start_));
    progress.finish();
  }

  void run_one(const OpRunner& runner, Lane& lane, size_t row) {
    const OpEntry& op = selection_.ops[row];
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++running_;
    }
    OpStatus status;
    try {
      status = runner.run(op, lane);
    } catch (const WriteFailure& e) {
      status.op = op.name;
      status.state = OpState::kInterrupted;
      stop_for_write_failure(e.what());
    } catch (const std::exception& e) {
      status.op = op.name;
      status.backend = plan_.backend->name;
      status.device = lane.device();
      status.state = OpState::kFailed;
      status.error = fmt::format("batch internal error: {}", e.what());
    }
    if (status.state == OpState::kInterrupted && status.exit_code == kWriteFailureExitCode) {
      stop_for_write_failure(fmt::format("{}: {}", op.name, status.error));
    }
    try {
      // The marker comes last: a batch killed before it redoes the op; one killed after it
      // rebuilds the row from the marker.
      if (is_final(status.state)) dir_.mark_complete(status);
      dir_.log(fmt::format("{} -> {} on device {} ({} attempt(s), {:.1f} s){}", op.name,
                           to_string(status.state), status.device, status.attempts, status.wall_s,
                           status.error.empty() ? "" : ": " + status.error));
    } catch (const WriteFailure& e) {
      stop_for_write_failure(e.what());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    rows_[row] = status;
    if (is_final(status.state)) ++done_here_;
    try {
      write_status_locked();
    } catch (const WriteFailure& e) {
      write_failure_ = write_failure_.empty() ? e.what() : write_failure_;
      interrupt_requested().store(true);
    }
  }

  // A file could not be written (full disk, read-only folder, quota): every lane stops as on an
  // interrupt, the ops that did not finish stay without a marker, and the batch ends with the
  // first failure, so that the same command resumes once there is room.
  void stop_for_write_failure(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (write_failure_.empty()) write_failure_ = what;
    interrupt_requested().store(true);
  }

  ProgressCounts counts() {
    std::lock_guard<std::mutex> lock(mutex_);
    ProgressCounts c;
    c.total = static_cast<int>(selection_.ops.size());
    for (size_t i = 0; i < selection_.ops.size(); ++i) {
      if (is_final(rows_[i].state)) ++c.done;
      if (is_failure(rows_[i].state)) ++c.failed;
    }
    c.running = running_;
    c.done_here = done_here_;
    return c;
  }

  void write_status() {
    std::lock_guard<std::mutex> lock(mutex_);
    write_status_locked();
  }

  void write_status_locked() { dir_.write_status(rows_); }

  int finish() {
    if (!write_failure_.empty()) {
      for (auto& row : rows_) {
        if (row.state == OpState::kPending) row.state = OpState::kInterrupted;
      }
      // Best effort: the status and the log may be on the full filesystem too.
      try {
        write_status();
        dir_.log("stopped: " + write_failure_);
      } catch (const Error&) {
      }
      throw WriteFailure(write_failure_);
    }
    bool interrupted = interrupt_requested().load();
    std::map<std::string, int> by_state;
    bool any_failure = false;
    for (auto& row : rows_) {
      if (interrupted && row.state == OpState::kPending) row.state = OpState::kInterrupted;
      ++by_state[to_string(row.state)];
      any_failure = any_failure || is_failure(row.state);
    }
    write_status();
    write_record();
    std::vector<std::string> parts;
    for (const auto& [state, n] : by_state) parts.push_back(fmt::format("{} {}", n, state));
    std::string summary = fmt::format("{} op(s): {}{}", rows_.size(), fmt::join(parts, ", "),
                                      interrupted ? " (interrupted; rerun to resume)" : "");
    dir_.log(summary);
    fmt::print("caliber batch: {} -> {}\n", summary, dir_.status_path().string());
    if (interrupted) return kInterruptedExitCode;
    return any_failure ? 1 : 0;
  }

  // FlagGems' --record for the whole batch, from the records its runs wrote (resumed ops
  // included), as one FlagGems invocation over these ops would write it.
  void write_record() {
    if (plan_.knobs.record == RecordFormat::kNone) return;
    std::vector<RecordedOp> ops;
    for (const auto& row : rows_) {
      if (row.state == OpState::kPending || row.state == OpState::kInterrupted) continue;
      RecordedOp op{row.op, {}, "failed", row.error};
      if (row.state == OpState::kOk) op.outcome = "passed";
      if (row.state == OpState::kDismissed) op.outcome = "skipped";
      op.run_dirs = final_run_dirs(dir_.op_dir(row.op));
      ops.push_back(std::move(op));
    }
    write_batch_record(dir_.root(), plan_.knobs.record, ops);
  }

  BatchPlan plan_;
  BatchDirectory& dir_;
  Selection selection_;
  OpCosts costs_;
  std::vector<OpStatus> rows_;  // selected ops (in selection order), then dismissed ones
  std::vector<size_t> todo_;    // rows still to run
  std::mutex mutex_;
  int running_ = 0;
  int done_here_ = 0;
  std::string write_failure_;  // the first write failure; guarded by mutex_
  Clock::time_point start_ = Clock::now();
};

}  // namespace

int run_batch(const BatchOptions& options, const EnvLookup& env) {
  BatchPlan plan = plan_batch(options, env);
  SelectionRequest request = selection_request_of(options);
  OpList dismiss = dismiss_list_of(options);

  OpCosts costs;
  if (!options.costs_from.empty()) {
    // Read even when unused, so that a wrong path is an error before anything runs.
    costs = load_op_costs(options.costs_from, true, "--costs-from");
    if (!options.longest_first) costs = {};
  } else if (options.longest_first) {
    // The shipped table first, then this batch's own earlier walls (a resumed or forced batch
    // on this device) over it.
    costs = load_op_costs(default_op_costs(), false, "");
    OpCosts own = load_op_costs(plan.out_dir, false, "");
    for (const auto& [op, wall] : own.wall_s) costs.wall_s[op] = wall;
    if (!own.source.empty()) {
      costs.source = costs.source.empty() ? own.source : costs.source + " and " + own.source;
    }
  }

  prepare_parent_for_children();
  install_interrupt_handlers();
  BatchDirectory dir(plan.out_dir);
  dir.log(fmt::format("batch started: {}", options.command_line));
  Selection selection =
      select_ops(list_ops(plan, dir, request.ops.empty()), request, dismiss, plan.backend->name);
  if (selection.ops.empty() && selection.dismissed.empty()) {
    throw_usage("no op selected (check --ops, --ops-file and --family against `caliber ops`)");
  }
  // A shard may be empty (more shards than ops): it then completes with no rows.
  if (options.shard) selection = shard_selection(selection, *options.shard);
  nlohmann::json slurm = slurm_task_env(env);
  dir.annotate_markers(slurm);

  nlohmann::json identity = identity_json(plan, selection);
  identity["shard"] = options.shard ? nlohmann::json(to_string(*options.shard)) : nullptr;
  identity["slurm"] = slurm;
  if (!options.force) check_resumable(dir, identity);
  write_file_atomic(dir.identity_path(), identity.dump(2) + "\n");

  if (options.warm_pass > 0) {
    // Its own directory, status and markers: a resumed batch warms only the ops it has not.
    BatchPlan warm = warm_pass_plan(plan);
    BatchDirectory warm_dir(warm.out_dir);
    dir.log(fmt::format("warm pass: {} lane(s) on device {} into {}", options.warm_pass,
                        plan.devices.front(), warm.out_dir.string()));
    Selection warm_selection{selection.ops, {}};
    int warm_code = BatchSession(warm, warm_dir, std::move(warm_selection), {}).run();
    dir.log(fmt::format("warm pass: exit {} (its failures cost the measured runs a compile only)",
                        warm_code));
    if (warm_code == kInterruptedExitCode) {
      identity["end_time"] = utc_now_iso8601();
      identity["exit"] = warm_code;
      write_file_atomic(dir.identity_path(), identity.dump(2) + "\n");
      return warm_code;
    }
  }
  int code = BatchSession(plan, dir, std::move(selection), std::move(costs)).run();
  identity["end_time"] = utc_now_iso8601();
  identity["exit"] = code;
  write_file_atomic(dir.identity_path(), identity.dump(2) + "\n");
  return code;
}

}  // namespace caliber
