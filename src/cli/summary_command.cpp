#include <fmt/format.h>

#include <filesystem>

#include "cli/command.h"
#include "cli/terminal.h"
#include "core/atomic_file.h"
#include "report/summary.h"

namespace caliber {
namespace {

struct SummaryArgs {
  std::vector<std::string> dirs;
  std::string output;
  bool quiet = false;
};

int summarize(const SummaryArgs& args) {
  std::vector<RunCollection> runs;
  for (const auto& dir : args.dirs) runs.push_back(load_run_collection(dir));
  // One directory keeps its summary beside its results, as a batch directory does.
  std::string output = args.output;
  if (output.empty()) {
    output = args.dirs.size() == 1 ? (std::filesystem::path(args.dirs[0]) / "summary.csv").string()
                                   : "summary.csv";
  }
  write_file_atomic(output, summary_csv(runs));
  if (!args.quiet) fmt::print("{}", summary_overview(runs, stdout_wants_color()));
  fmt::print("wrote {} ({} rows)\n", output, summary_records(runs).size());
  return 0;
}

}  // namespace

void add_summary_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand(
      "summary",
      "Aggregate run and batch directories (results.jsonl, or FlagGems-worded run.log) "
      "into summary.csv");
  auto args = std::make_shared<SummaryArgs>();
  cmd->add_option("dirs", args->dirs, "run or batch directories")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-o,--output", args->output,
                  "CSV to write (default: DIR/summary.csv for one directory, else ./summary.csv)");
  cmd->add_flag("-q,--quiet", args->quiet, "print only where the CSV went");
  cmd->callback([&action, args] { action = [args] { return summarize(*args); }; });
}

}  // namespace caliber
