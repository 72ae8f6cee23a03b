#include <fstream>
#include <iterator>
#include <utility>

#include "batch/batch_driver.h"
#include "batch/batch_plan.h"
#include "cli/command.h"
#include "core/text_util.h"

namespace caliber {
namespace {

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
  std::string isolation;  // empty: default_isolation() of the candidate
  bool no_dismiss = false;
  bool no_progress = false;
  std::string order = "longest-first";
};

}  // namespace

void add_batch_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand(
      "batch", "Run many ops, each isolated on a device lane, surviving crashes and hangs");
  auto in = std::make_shared<BatchCommandInput>();
  BatchOptions& o = in->options;
  add_knob_options(cmd, o.knob_flags, batch_knob_names());
  cmd->add_option("--ops", in->ops, "comma-separated op names (default: every op)");
  cmd->add_option("--ops-file", o.ops_file, "a file of op names, one or more per line, # comments");
  cmd->add_option("--family", in->families, "only ops of these families (comma-separated)");
  cmd->add_option("--dismiss-file", o.dismiss_file, "dismiss list (default: ops/dismiss.yaml)");
  cmd->add_flag("--no-dismiss", in->no_dismiss, "run dismissed ops too");
  cmd->add_option("--devices,--gpus", o.devices, "device indices, one lane each (e.g. 0,1,2,3)");
  cmd->add_option("--isolation", in->isolation,
                  fmt::format("accepted: {} (default: worker with a python: candidate, "
                              "else op)",
                              isolation_choice().accepted()));
  cmd->add_option("--retries", o.retries, "retries of a failed op (default 2)");
  cmd->add_option("--timeout-s", o.timeout_s, "fixed per-op timeout (default: scaled)");
  cmd->add_option("--timeout-base-s", o.timeout_base_s, "scaled timeout: seconds per op");
  cmd->add_option("--timeout-per-case-s,--timeout-per-shape-s", o.timeout_per_case_s,
                  "scaled timeout: seconds per shape and dtype");
  cmd->add_option("--kill-grace-s", o.kill_grace_s, "SIGTERM to SIGKILL grace period");
  cmd->add_option("--worker-max-growth-mib", o.worker_max_growth_mib,
                  "replace a worker whose resident memory grew by more than this since its first "
                  "op (default 1024; 0: never)");
  cmd->add_option("--order", in->order,
                  "accepted: longest-first (each lane runs its longest ops first, by expected wall "
                  "times), selection (the order ops were selected in); default longest-first");
  cmd->add_option("--costs-from", o.costs_from,
                  "expected wall times for --order longest-first: an ops_status.csv or a batch "
                  "directory (default: ops/op_costs.csv, then this batch's own earlier walls)");
  cmd->add_flag("--force", o.force, "redo every op, complete or not");
  cmd->add_flag("--redo-failed", o.redo_failed, "redo the complete ops that did not pass");
  cmd->add_flag("--no-progress", in->no_progress, "no live progress line");
  cmd->callback([&action, in] {
    action = [in] {
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
      const std::pair<const char*, double> amounts[] = {
          {"--timeout-s", options.timeout_s},
          {"--timeout-base-s", options.timeout_base_s},
          {"--timeout-per-case-s", options.timeout_per_case_s},
          {"--kill-grace-s", options.kill_grace_s},
          {"--worker-max-growth-mib", options.worker_max_growth_mib}};
      for (const auto& [knob, value] : amounts) {
        if (value < 0) throw_usage("{} {:g}: accepted: a number >= 0", knob, value);
      }
      return run_batch(options, process_env());
    };
  });
}

}  // namespace caliber
