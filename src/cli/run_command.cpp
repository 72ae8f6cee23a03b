#include "cli/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/flaggems_flags.h"
#include "cli/run_config.h"
#include "cli/run_sinks.h"
#include "core/flaggems_mode.h"
#include "core/flaggems_record.h"
#include "core/run_directory.h"
#include "engine/provider/provider.h"
#include "engine/run_directory_sink.h"
#include "engine/run_session.h"

namespace caliber {
namespace {

std::string joined_command_line(const FlagValues& flags) {
  std::string out = "caliber run";
  for (const auto& [name, value] : flags) out += fmt::format(" {} {}", knob_def(name).flag, value);
  return out;
}

// The run itself: the candidate first (a candidate that cannot load leaves no run directory),
// then the run directory and the sinks that write it, then the session.
int run_planned(const RunPlan& plan, const std::string& command_line, const RunOutput& output,
                std::chrono::steady_clock::time_point started) {
  std::unique_ptr<Provider> candidate;
  // Before the import: FlagGems reads USE_FLAGTUNE and GEMS_VENDOR while it loads.
  export_candidate_environment(plan.candidate_env);
  if (!plan.candidate.empty()) candidate = make_provider(plan.candidate);
  RunDirectory dir(plan.out);
  RunIdentity identity = identity_of(plan, candidate ? candidate->version() : "", command_line);
  RunDirectorySink files(dir, plan.config.shapes.to_yaml());
  RunLogSink log(dir);
  TerminalSink terminal(output.out, output.color, output.progress);
  RunSession session(plan.config, candidate.get(), {&files, &log, &terminal});
  int code = session.run(identity, run_banner(plan, identity), started);
  // FlagGems' record (--record log|json) from the rows the session wrote; a warm run wrote none.
  if (plan.config.warm_only) return code;
  write_run_record(dir.root(), plan.knobs.record,
                   {plan.config.op->name(), flaggems_mode_name(identity.timer), identity.level,
                    plan.knobs.metrics},
                   identity.op_node);
  return code;
}

// The plan (shapes, lists, the device guard) counts in the run's time, as the worker's op wall
// counts it.
int plan_and_run(const FlagValues& flags, const EnvLookup& env, const RunOutput& output) {
  const auto started = std::chrono::steady_clock::now();
  return run_planned(plan_run(flags, env), joined_command_line(flags), output, started);
}

}  // namespace

int execute_run(const FlagValues& flags, const EnvLookup& env, const RunOutput& output) {
  return plan_and_run(flags, env, output);
}

void add_run_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("run", "Benchmark one operator: every shape and dtype");
  auto flags = std::make_shared<FlagValues>();
  auto no_progress = std::make_shared<bool>(false);
  add_knob_options(cmd, *flags, run_knob_names());
  add_flaggems_flags(cmd, *flags);
  cmd->add_flag("--no-progress", *no_progress, "no progress line");
  cmd->callback([&action, flags, no_progress] {
    action = [flags, no_progress] {
      RunOutput output;
      output.color = isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
      output.progress = !*no_progress && isatty(STDERR_FILENO);
      return plan_and_run(*flags, process_env(), output);
    };
  });
}

}  // namespace caliber
