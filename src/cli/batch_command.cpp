#include <fstream>
#include <iterator>
#include <utility>

#include "backend/registry.h"
#include "batch/batch_driver.h"
#include "batch/batch_plan.h"
#include "batch/slurm_launcher.h"
#include "cli/batch_merge.h"
#include "cli/command.h"
#include "cli/flaggems_flags.h"
#include "core/text_util.h"
#include "engine/device/generic/backend_loader.h"

namespace caliber {
namespace {

// A backend only torch can count is loaded here, on the main thread, before the batch counts
// its devices (the embedded interpreter is started by the thread that will finalize it).
void load_torch_enumerated_backend(const FlagValues& knob_flags) {
  Knobs knobs = resolve_knobs(knob_flags, process_env(), {"backend", "backend_library"});
  if (knobs.backend.empty()) return;
  const BackendDescriptor& backend = find_backend("--backend (ZL_BACKEND)", knobs.backend);
  if (!backend.enumerated_by_torch) return;
  request_backend_library(knobs.backend_library);
  load_backend(backend, knobs.backend_library);
}

// For batch_identity.json: the command exactly as typed (arguments separated by spaces).
std::string own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  return trim(text);
}

struct BatchCommandInput {
  BatchOptions options;
  std::string ops;
  std::string families;
  std::string isolation;  // empty: kDefaultIsolation
  bool no_dismiss = false;
  bool no_progress = false;
  std::string order = "selection";
  std::string shard;
  std::string launcher = "local";
  SlurmOptions slurm;
  std::string attach;  // --attach OUT
  std::string merge;   // --merge OUT
};

const Choice<Launcher>& launcher_choice() {
  static const Choice<Launcher> choice{{"local", Launcher::kLocal}, {"slurm", Launcher::kSlurm}};
  return choice;
}

// Flags that mean something only to the Slurm launcher: given to a local batch, they would be
// silently ignored, so they are refused.
void refuse_slurm_flags_locally(const CLI::App& cmd) {
  for (const char* flag : {"--nodes", "--gpus-per-node", "--partition", "--time-limit",
                           "--sbatch-arg", "--no-submit", "--attach"}) {
    if (cmd.count(flag) > 0) {
      throw_usage("{}: only with --launcher slurm (this batch runs locally)", flag);
    }
  }
}

}  // namespace

void add_batch_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand(
      "batch", "Run many ops, each isolated on a device lane, surviving crashes and hangs");
  auto in = std::make_shared<BatchCommandInput>();
  BatchOptions& o = in->options;
  add_knob_options(cmd, o.knob_flags, batch_knob_names());
  add_flaggems_flags(cmd, o.knob_flags);
  cmd->add_option("--ops", in->ops, "comma-separated op names (default: every op)");
  cmd->add_option("--ops-file", o.ops_file, "a file of op names, one or more per line, # comments");
  cmd->add_option("--family", in->families, "only ops of these families (comma-separated)");
  cmd->add_option("--dismiss-file", o.dismiss_file, "dismiss list (default: ops/dismiss.yaml)");
  cmd->add_flag("--no-dismiss", in->no_dismiss, "run dismissed ops too");
  cmd->add_option("--devices,--gpus", o.devices, "device indices, one lane each (e.g. 0,1,2,3)");
  cmd->add_option("--isolation", in->isolation,
                  fmt::format("accepted: {} (default: {}: one process per lane runs op after "
                              "op; op: a process per op)",
                              isolation_choice().accepted(), to_string(kDefaultIsolation)));
  cmd->add_option("--retries", o.retries, "retries of a failed op (default 2)");
  cmd->add_option("--timeout-s", o.timeout_s, "fixed per-op timeout (default: scaled)");
  cmd->add_option("--timeout-base-s", o.timeout_base_s, "scaled timeout: seconds per op");
  cmd->add_option("--timeout-per-case-s,--timeout-per-shape-s", o.timeout_per_case_s,
                  "scaled timeout: seconds per shape and dtype");
  cmd->add_option("--timeout-stretch", o.timeout_stretch,
                  "the timeout bounds the time without a measured case: each row restarts it, "
                  "up to this many times the timeout in all (default 3; 1: a fixed deadline)");
  cmd->add_option("--kill-grace-s", o.kill_grace_s, "SIGTERM to SIGKILL grace period");
  cmd->add_option("--worker-max-growth-mib", o.worker_max_growth_mib,
                  "replace a worker whose resident memory grew by more than this since its first "
                  "op (default 1024; 0: never)");
  cmd->add_option("--order", in->order,
                  "accepted: selection (the order ops were selected in; default), longest-first "
                  "(each lane runs its longest ops first, by expected wall times: a shorter tail "
                  "on many devices)");
  cmd->add_option("--costs-from", o.costs_from,
                  "expected wall times for --order longest-first: an ops_status.csv or a batch "
                  "directory (default: ops/op_costs.csv, then this batch's own earlier walls)");
  cmd->add_option("--warm-pass", o.warm_pass,
                  fmt::format("with --candidate: first run every op once, untimed, in this many "
                              "warm lanes on the first device, so that the screen finds the "
                              "candidate's kernels compiled (0 to {}; default 0: none)",
                              kMaxWarmLanes));
  cmd->add_flag("--force", o.force, "redo every op, complete or not");
  cmd->add_flag("--redo-failed", o.redo_failed, "redo the complete ops that did not pass");
  cmd->add_flag("--no-progress", in->no_progress, "no live progress line");
  cmd->add_option("--shard", in->shard,
                  "run only shard I of N of the selected ops (I/N, by the ops' stable hash)");
  cmd->add_option("--launcher", in->launcher,
                  fmt::format("accepted: {} (default local: lanes on this host; slurm: a job "
                              "array over shards, docs/slurm.md)",
                              launcher_choice().accepted()));
  cmd->add_option("--nodes", in->slurm.nodes,
                  "slurm: shards = array tasks, one node each (default 1)");
  cmd->add_option("--gpus-per-node", in->slurm.gpus_per_node,
                  "slurm: GPUs per task (--gres=gpu:G; default 0: none)");
  cmd->add_option("--partition", in->slurm.partition, "slurm: the partition to submit to");
  cmd->add_option("--time-limit", in->slurm.time_limit,
                  "slurm: time limit per task (sbatch --time forms)");
  cmd->add_option("--sbatch-arg", in->slurm.sbatch_args,
                  "slurm: an sbatch argument passed through (repeatable; --sbatch-arg=--exclusive)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--no-submit", in->slurm.no_submit,
                "slurm: write the scripts and print the sbatch command only");
  cmd->add_option("--attach", in->attach,
                  "slurm: watch an earlier submission's jobs in OUT, then merge");
  cmd->add_option("--merge", in->merge,
                  "merge a Slurm sweep's shards in OUT into one batch view (ops_status.csv, "
                  "summary.csv, ops/)");
  cmd->callback([&action, in, cmd] {
    action = [in, cmd] {
      if (!in->merge.empty()) return merge_sweep(in->merge);
      Launcher launcher = launcher_choice().parse("--launcher", in->launcher);
      BatchOptions options = in->options;
      options.selection.ops = split_nonempty(in->ops, ',');
      options.selection.families = split_nonempty(in->families, ',');
      if (!in->isolation.empty()) {
        options.isolation = isolation_choice().parse("--isolation", in->isolation);
      }
      if (in->order != "longest-first" && in->order != "selection") {
        throw_usage("--order: '{}' is not an order (accepted: longest-first, selection)",
                    in->order);
      }
      options.longest_first = in->order == "longest-first";
      options.use_dismiss_list = !in->no_dismiss;
      options.progress = !in->no_progress;
      options.command_line = own_command_line();
      load_torch_enumerated_backend(options.knob_flags);
      const std::pair<const char*, double> amounts[] = {
          {"--timeout-s", options.timeout_s},
          {"--timeout-base-s", options.timeout_base_s},
          {"--timeout-per-case-s", options.timeout_per_case_s},
          {"--kill-grace-s", options.kill_grace_s},
          {"--worker-max-growth-mib", options.worker_max_growth_mib}};
      for (const auto& [knob, value] : amounts) {
        if (value < 0) throw_usage("{} {:g}: accepted: a number >= 0", knob, value);
      }
      if (!(options.timeout_stretch >= 1)) {
        throw_usage("--timeout-stretch {:g}: accepted: a number >= 1 (1: a fixed deadline)",
                    options.timeout_stretch);
      }
      if (!in->shard.empty()) options.shard = parse_shard_spec("--shard", in->shard);
      if (launcher == Launcher::kSlurm) {
        if (options.warm_pass > 0) {
          throw_usage("--warm-pass: only with a local batch (--launcher local)");
        }
        SlurmOptions slurm = in->slurm;
        slurm.attach = !in->attach.empty();
        return run_slurm_batch(options, slurm, in->attach, process_env(), merge_sweep);
      }
      refuse_slurm_flags_locally(*cmd);
      return run_batch(options, process_env());
    };
  });
}

}  // namespace caliber
