#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "cli/command.h"
#include "cli/compare_options.h"
#include "core/atomic_file.h"
#include "report/html_report.h"

namespace caliber {
namespace {

struct ReportArgs {
  std::string dir;
  std::string compare_with;
  std::string output;
  CompareOptions options;
};

int report(const ReportArgs& args) {
  RunCollection run = load_run_collection(args.dir);
  std::optional<RunCollection> other;
  std::optional<Comparison> comparison;
  if (!args.compare_with.empty()) {
    other = load_run_collection(args.compare_with);
    comparison = compare_runs(run, *other, args.options);
  }
  std::string output = args.output.empty()
                           ? (std::filesystem::path(args.dir) / "report.html").string()
                           : args.output;
  write_file_atomic(output, render_html_report(run, comparison ? &*comparison : nullptr,
                                               other ? &*other : nullptr));
  fmt::print("wrote {}\n", output);
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand(
      "report", "Write one self-contained HTML report of a run or batch directory");
  auto args = std::make_shared<ReportArgs>();
  cmd->add_option("dir", args->dir, "run or batch directory (A when comparing)")->required();
  cmd->add_option("--compare", args->compare_with,
                  "a second run or batch directory (B) to show verdicts against");
  cmd->add_option("-o,--output", args->output, "HTML file to write (default: DIR/report.html)");
  add_compare_options(cmd, args->options);
  cmd->callback([&action, args] { action = [args] { return report(*args); }; });
}

}  // namespace caliber
