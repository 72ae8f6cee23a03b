#include "batch/slurm_launcher.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "backend/registry.h"
#include "batch/attempt_outcome.h"
#include "batch/batch_driver.h"
#include "batch/batch_plan.h"
#include "batch/child_process.h"
#include "batch/interrupt.h"
#include "batch/op_catalog.h"
#include "batch/op_selection.h"
#include "batch/shard_spec.h"
#include "batch/slurm_client.h"
#include "batch/slurm_script.h"
#include "batch/slurm_sweep.h"
#include "core/atomic_file.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/run_identity.h"
#include "core/text_util.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

constexpr double kOpsListingTimeoutS = 120;
constexpr double kDefaultPollS = 5;
// More shards than this are shown as counts per task state instead of one by one.
constexpr int kShardsShownOneByOne = 8;

void say(const std::string& line) {
  fmt::print("{}\n", line);
  std::fflush(stdout);
}

void validate(const BatchOptions& options, const SlurmOptions& slurm) {
  if (slurm.nodes < 1) {
    throw_usage("--nodes {}: accepted: an integer >= 1 (the number of shards, one array task each)",
                slurm.nodes);
  }
  if (slurm.gpus_per_node < 0) {
    throw_usage("--gpus-per-node {}: accepted: an integer >= 0 (0: ask for no GPU)",
                slurm.gpus_per_node);
  }
  if (!slurm.time_limit.empty() && !valid_time_limit(slurm.time_limit)) {
    throw_usage(
        "--time-limit: '{}' is not a Slurm time (accepted: MINUTES, MM:SS, HH:MM:SS, D-HH, "
        "D-HH:MM, D-HH:MM:SS, UNLIMITED)",
        slurm.time_limit);
  }
  if (options.shard) {
    throw_usage(
        "--shard {}: not accepted with --launcher slurm, which gives array task i shard i/N "
        "(--nodes N)",
        to_string(*options.shard));
  }
  if (!options.devices.empty()) {
    throw_usage(
        "--devices {}: not accepted with --launcher slurm: each task uses the devices "
        "Slurm gives it (ask for them with --gpus-per-node)",
        options.devices);
  }
}

// What can be told about --out being visible from every node without running on them: a
// filesystem each node has its own of (tmpfs, ramfs) is not, when the partition has more than one
// node. Returns what was checked, for the submission message.
std::string check_out_dir_shared(const fs::path& out, const std::vector<std::string>& nodes) {
  struct statfs info {};
  fs::path probe = out;
  while (!probe.empty() && !fs::exists(probe)) probe = probe.parent_path();
  if (::statfs(probe.c_str(), &info) != 0) return "filesystem of --out: unknown";
  static const std::map<long, const char*> kNames = {
      {0x6969, "nfs"},       {0x0BD00BD0, "lustre"},  {0x47504653, "gpfs"}, {0x19830326, "beegfs"},
      {0x00C36400, "ceph"},  {0xFE534D42, "smb2"},    {0xFF534D42, "cifs"}, {0x65735546, "fuse"},
      {0x01021994, "tmpfs"}, {0x858458F6, "ramfs"},   {0xEF53, "ext2/3/4"}, {0x58465342, "xfs"},
      {0x9123683E, "btrfs"}, {0x794C7630, "overlay"}, {0x2FC12FC1, "zfs"}};
  auto found = kNames.find(static_cast<long>(info.f_type));
  std::string name = found != kNames.end()
                         ? found->second
                         : fmt::format("type 0x{:x}", static_cast<long>(info.f_type));
  bool node_local = name == "tmpfs" || name == "ramfs";
  if (node_local && nodes.size() > 1) {
    throw_usage(
        "--out: '{}' is on {}, which every node has its own of, and the partition has {} nodes "
        "({}...); choose a directory on the cluster's shared filesystem",
        out.string(), name, nodes.size(), nodes.front());
  }
  return fmt::format(
      "--out is on {} ({}); each task also checks it can read slurm/plan.json "
      "before it starts",
      name,
      nodes.empty() ? "node count unknown"
                    : fmt::format("{} node(s) in the partition", nodes.size()));
}

fs::path listing_binary(const EnvLookup& env) {
  if (auto forced = env("CALIBER_CHILD_BINARY"); forced && !forced->empty()) {
    return fs::absolute(*forced);
  }
  return fs::read_symlink("/proc/self/exe");
}

// The sweep's selection, made here so that a bad op name or family is refused before anything is
// submitted, and so that each shard's size is known.
Selection select_sweep_ops(const BatchOptions& options, const Knobs& knobs,
                           const SlurmLayout& layout, const EnvLookup& env) {
  SelectionRequest request = selection_request_of(options);
  OpList dismiss = dismiss_list_of(options);
  fs::path json_path = layout.slurm_dir() / "ops_catalog.json";
  fs::path log_path = layout.slurm_dir() / "ops_catalog.log";
  std::error_code ec;
  fs::remove(json_path, ec);
  fs::remove(log_path, ec);
  ChildSpec spec;
  spec.argv = {listing_binary(env).string(), "ops", "--json", "--level", to_string(knobs.level)};
  if (!knobs.backend.empty()) {
    spec.argv.push_back("--backend");
    spec.argv.push_back(knobs.backend);
  }
  spec.stdout_path = json_path;
  spec.stderr_path = log_path;
  std::vector<OpEntry> catalog;
  {
    ChildProcess child(spec);
    auto deadline = Clock::now() + std::chrono::seconds(static_cast<int>(kOpsListingTimeoutS));
    AttemptOutcome outcome = classify_exit(child.wait(deadline, interrupt_requested(), 1.0),
                                           kOpsListingTimeoutS, error_line_from_log(log_path));
    if (outcome.state != OpState::kOk) {
      throw_usage("cannot list the ops to shard: `{} ops --json` failed ({}: {})", spec.argv[0],
                  to_string(outcome.state), outcome.error);
    }
    catalog = parse_op_catalog(read_file(json_path));
  }
  Selection selection = select_ops(catalog, request, dismiss, knobs.backend);
  if (selection.ops.empty() && selection.dismissed.empty()) {
    throw_usage("no op selected (check --ops, --ops-file and --family against `caliber ops`)");
  }
  return selection;
}

SweepPlan make_plan(const BatchOptions& options, const SlurmOptions& slurm,
                    const Selection& selection) {
  SweepPlan plan;
  plan.shards = slurm.nodes;
  plan.binary = fs::read_symlink("/proc/self/exe").string();
  plan.workdir = fs::current_path().string();
  plan.shard_args = shard_batch_args(options);
  plan.command_line = options.command_line;
  for (int i = 0; i < slurm.nodes; ++i) {
    Selection part = shard_selection(selection, ShardSpec{i, slurm.nodes});
    std::vector<std::string> ops;
    for (const auto& op : part.ops) ops.push_back(op.name);
    for (const auto& [op, entry] : part.dismissed) ops.push_back(op.name);
    plan.shard_ops.push_back(ops);
    plan.shard_to_run.push_back(static_cast<int>(part.ops.size()));
  }
  return plan;
}

// Arguments that change what is measured; --force and --redo-failed only say what to redo.
std::vector<std::string> measured_args(std::vector<std::string> args) {
  args.erase(
      std::remove_if(args.begin(), args.end(),
                     [](const std::string& a) { return a == "--force" || a == "--redo-failed"; }),
      args.end());
  return args;
}

void check_same_sweep(const SlurmLayout& layout, const SweepPlan& now) {
  std::optional<SweepPlan> earlier = read_sweep_plan(layout);
  if (!earlier) return;
  if (earlier->shards != now.shards) {
    throw_usage(
        "--nodes {}: '{}' holds a Slurm sweep of {} shards; resume it with --nodes {}, or choose "
        "another --out",
        now.shards, layout.out.string(), earlier->shards, earlier->shards);
  }
  if (measured_args(earlier->shard_args) != measured_args(now.shard_args)) {
    throw_usage(
        "--out: '{}' holds a Slurm sweep with other knobs (its shards run `batch {}`, this one "
        "`batch {}`); resume it with the same command, or choose another --out",
        layout.out.string(), fmt::join(earlier->shard_args, " "), fmt::join(now.shard_args, " "));
  }
  if (earlier->shard_ops != now.shard_ops) {
    throw_usage(
        "--out: '{}' holds a Slurm sweep over other ops (the corpus or the dismiss list changed "
        "since); choose another --out",
        layout.out.string());
  }
}

std::string task_label(const SlurmTask& t) {
  return t.node.empty() ? t.state : fmt::format("{} on {}", t.state, t.node);
}

struct SweepView {
  std::string line;
  bool any_active = false;
  int done = 0;
  int total = 0;
};

SweepView view_sweep(const SlurmLayout& layout, const SweepPlan& plan,
                     const std::map<int, SlurmTask>& tasks) {
  SweepView v;
  std::vector<std::string> shards;
  std::map<std::string, int> by_state;
  for (int i = 0; i < plan.shards; ++i) {
    int planned = i < static_cast<int>(plan.shard_ops.size())
                      ? static_cast<int>(plan.shard_ops[i].size())
                      : 0;
    if (planned == 0) continue;
    ShardProgress p = shard_progress(layout, i);
    int total = p.started ? p.total : planned;
    v.done += p.done;
    v.total += total;
    std::string state = "not submitted";
    if (auto t = tasks.find(i); t != tasks.end()) {
      state = task_label(t->second);
      v.any_active = v.any_active || task_active(t->second.state);
      ++by_state[t->second.state];
    } else {
      if (p.complete) state = "complete";
      ++by_state[state];
    }
    shards.push_back(fmt::format("shard {} {} {}/{}", i, state, p.done, total));
  }
  std::string detail;
  if (static_cast<int>(shards.size()) <= kShardsShownOneByOne) {
    detail = fmt::format("{}", fmt::join(shards, "; "));
  } else {
    std::vector<std::string> parts;
    for (const auto& [state, n] : by_state) parts.push_back(fmt::format("{} {}", n, state));
    detail = fmt::format("tasks: {}", fmt::join(parts, ", "));
  }
  v.line = fmt::format("[slurm] {}/{} ops done; {}", v.done, v.total, detail);
  return v;
}

double poll_interval_s(const EnvLookup& env) {
  if (auto text = env("CALIBER_SLURM_POLL_S"); text && !text->empty()) {
    try {
      double value = std::stod(*text);
      if (value > 0) return value;
    } catch (const std::exception&) {
    }
  }
  return kDefaultPollS;
}

std::string cancel_hint(const SlurmLayout& layout) {
  std::vector<std::string> ids;
  for (const auto& s : read_submissions(layout)) {
    ids.push_back(s.array_job_id);
    if (!s.merge_job_id.empty()) ids.push_back(s.merge_job_id);
  }
  return fmt::format("scancel {}", fmt::join(ids, " "));
}

// Shows the tasks' states and the shards' progress until no task of the sweep is queued or
// running; returns false when interrupted (the jobs keep running).
bool watch(const SlurmLayout& layout, const SweepPlan& plan, const SlurmClient& client,
           const EnvLookup& env) {
  const double interval = poll_interval_s(env);
  std::string last;
  while (true) {
    SweepView v = view_sweep(layout, plan, refresh_tasks(layout, &client));
    if (v.line != last) say(v.line);
    last = v.line;
    if (!v.any_active) return true;
    auto until = Clock::now() + std::chrono::milliseconds(static_cast<int>(interval * 1000));
    while (Clock::now() < until) {
      if (interrupt_requested().load()) {
        say(fmt::format(
            "caliber batch: stopped watching; the jobs keep running.\n  reattach: caliber batch "
            "--launcher slurm --attach {}\n  cancel:   {}",
            layout.out.string(), cancel_hint(layout)));
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

}  // namespace

int run_slurm_batch(const BatchOptions& options, const SlurmOptions& slurm,
                    const fs::path& attach_out, const EnvLookup& env, const SweepMerge& merge) {
  install_interrupt_handlers();
  if (slurm.attach) {
    SlurmLayout layout{fs::absolute(attach_out).lexically_normal()};
    std::optional<SweepPlan> plan = read_sweep_plan(layout);
    if (!plan) {
      throw_usage("--attach: '{}' holds no Slurm sweep (no slurm/plan.json)", layout.out.string());
    }
    SlurmClient client(env, layout.slurm_dir(), /*need_sbatch=*/false);
    if (!client.has("squeue")) {
      throw_usage("--attach: no squeue on PATH to watch the sweep's jobs with");
    }
    say(fmt::format("caliber batch: watching {} ({} shards)", layout.out.string(), plan->shards));
    if (!watch(layout, *plan, client, env)) return kInterruptedExitCode;
    return merge(layout.out);
  }

  validate(options, slurm);
  Knobs knobs = resolve_knobs(options.knob_flags, env, batch_knob_names());
  if (!knobs.backend.empty()) find_backend("--backend (ZL_BACKEND)", knobs.backend);
  fs::path out =
      knobs.out_dir.empty()
          ? fs::path(fmt::format("batch-{}-{}", knobs.backend.empty() ? "auto" : knobs.backend,
                                 to_string(knobs.level)))
          : fs::path(knobs.out_dir);
  SlurmLayout layout{fs::absolute(out).lexically_normal()};
  SlurmClient client(env, layout.slurm_dir(), /*need_sbatch=*/!slurm.no_submit);
  if (auto max = client.max_array_size(); max && slurm.nodes > *max) {
    throw_usage(
        "--nodes {}: the cluster's MaxArraySize is {} (array indices 0..{}); use fewer, larger "
        "shards",
        slurm.nodes, *max, *max - 1);
  }
  std::string fs_check = check_out_dir_shared(layout.out, client.partition_nodes(slurm.partition));

  fs::create_directories(layout.log_dir());
  Selection selection = select_sweep_ops(options, knobs, layout, env);
  SweepPlan plan = make_plan(options, slurm, selection);
  check_same_sweep(layout, plan);
  write_sweep_plan(layout, plan);
  SlurmScriptInput script{plan.binary, plan.workdir, layout, slurm, plan.shard_args};
  write_file_atomic(layout.array_script(), array_script(script));
  write_file_atomic(layout.merge_script(), merge_script(script));
  fs::permissions(layout.array_script(), fs::perms::owner_exec | fs::perms::group_exec,
                  fs::perm_options::add);

  // Which shards to run: not complete, not still queued or running, not empty.
  std::map<int, SlurmTask> tasks = refresh_tasks(layout, client.has("squeue") ? &client : nullptr);
  std::vector<int> to_submit;
  std::vector<int> active;
  int complete = 0;
  for (int i = 0; i < plan.shards; ++i) {
    if (plan.shard_ops[i].empty()) continue;
    if (auto t = tasks.find(i); t != tasks.end() && task_active(t->second.state)) {
      active.push_back(i);
      continue;
    }
    if (!options.force && shard_progress(layout, i).complete) {
      ++complete;
      continue;
    }
    to_submit.push_back(i);
  }
  say(fmt::format("caliber batch: {} op(s) to run ({} dismissed) in {} shard(s) -> {}",
                  selection.ops.size(), selection.dismissed.size(), plan.shards,
                  layout.out.string()));
  say(fmt::format("  shards: {} complete, {} queued or running, {} to submit{}", complete,
                  active.size(), to_submit.size(),
                  to_submit.empty() ? "" : fmt::format(" ({})", array_ranges(to_submit))));
  say(fmt::format("  out dir check: {}", fs_check));
  say(fmt::format("  array script: {}", layout.array_script().string()));

  if (slurm.no_submit) {
    say(fmt::format(
        "  submit with:  sbatch --array={} {}",
        to_submit.empty() ? "0-" + std::to_string(plan.shards - 1) : array_ranges(to_submit),
        layout.array_script().string()));
    say(
        fmt::format("  then merge:   sbatch --dependency=afterany:<array job id> {}   (or "
                    "caliber batch --merge {} once the tasks ended)",
                    layout.merge_script().string(), layout.out.string()));
    return 0;
  }
  if (!to_submit.empty()) {
    Submission submission;
    submission.shards = to_submit;
    submission.time = utc_now_iso8601();
    submission.array_job_id =
        client.submit({"--array=" + array_ranges(to_submit), layout.array_script().string()});
    std::vector<std::string> after = {submission.array_job_id};
    for (const auto& s : read_submissions(layout)) {
      for (int shard : active) {
        if (std::find(s.shards.begin(), s.shards.end(), shard) != s.shards.end() &&
            std::find(after.begin(), after.end(), s.array_job_id) == after.end()) {
          after.push_back(s.array_job_id);
        }
      }
    }
    try {
      submission.merge_job_id =
          client.submit({fmt::format("--dependency=afterany:{}", fmt::join(after, ":")),
                         layout.merge_script().string()});
    } catch (const Error& e) {
      // The array is in: keep its record; the merge can be run by hand.
      say(
          fmt::format("caliber batch: the merge job was not accepted ({}); run `caliber batch "
                      "--merge {}` once the tasks ended",
                      e.what(), layout.out.string()));
    }
    append_submission(layout, submission);
    say(fmt::format("  submitted array job {} (shards {}){}", submission.array_job_id,
                    array_ranges(to_submit),
                    submission.merge_job_id.empty()
                        ? ""
                        : fmt::format(" and merge job {} after it", submission.merge_job_id)));
    say(fmt::format("  Ctrl-C stops watching, not the jobs; cancel with: {}", cancel_hint(layout)));
  } else if (active.empty()) {
    say("  every shard is complete; merging");
    return merge(layout.out);
  }
  if (!watch(layout, plan, client, env)) return kInterruptedExitCode;
  return merge(layout.out);
}

}  // namespace caliber
