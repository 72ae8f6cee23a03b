#include <fmt/format.h>

#include <filesystem>

#include "batch/interrupt.h"
#include "cli/command.h"
#include "cli/compare_confirm.h"
#include "cli/compare_options.h"
#include "cli/terminal.h"
#include "core/atomic_file.h"
#include "report/compare_view.h"

namespace caliber {
namespace {

struct CompareArgs {
  std::string a;
  std::string b;
  std::string output_dir;
  bool fail_on_slow = false;
  bool confirm = false;
  int confirm_rounds = 3;
  double confirm_deadline_s = 0;
  CompareOptions options;
};

int compare(const CompareArgs& args) {
  RunCollection a = load_run_collection(args.a);
  RunCollection b = load_run_collection(args.b);
  Comparison comparison = compare_runs(a, b, args.options);
  // The comparison judges B, so by default it is filed with B.
  std::filesystem::path dir = args.output_dir.empty() ? args.b : args.output_dir;
  std::filesystem::create_directories(dir);
  if (args.confirm) {
    // A signal stops the pass between rows, and the rows so far are written below.
    install_interrupt_handlers();
    ConfirmationPass pass = run_confirmation(
        comparison, a, b, args.confirm_rounds, dir, process_env(),
        {.deadline_s = args.confirm_deadline_s, .interrupted = &interrupt_requested()});
    apply_confirmations(comparison, args.confirm_rounds, pass.confirmations);
    comparison.confirm_needed = pass.needed;
    comparison.confirm_stopped = pass.stopped;
  }
  write_file_atomic(dir / "compare.csv", compare_csv(comparison));
  write_file_atomic(dir / "compare.json", compare_json(comparison));
  fmt::print("{}", compare_text(comparison, stdout_wants_color()));
  fmt::print("wrote {} and {}\n", (dir / "compare.csv").string(), (dir / "compare.json").string());
  if (comparison.confirm_stopped == "interrupted") return 130;
  if (args.fail_on_slow && comparison.regressed()) {
    fmt::print(stderr, "caliber: B regressed (SLOW rows, or rows that failed only in B)\n");
    return 1;
  }
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, CommandAction& action) {
  auto* cmd =
      app.add_subcommand("compare",
                         "Compare two runs row by row (A is the reference, B is judged) behind the "
                         "caliber gate");
  auto args = std::make_shared<CompareArgs>();
  cmd->add_option("a", args->a, "reference run or batch directory")->required();
  cmd->add_option("b", args->b, "run or batch directory to judge")->required();
  cmd->add_option("-o,--output-dir", args->output_dir,
                  "where compare.csv and compare.json go (default: B)");
  cmd->add_flag("--fail-on-slow", args->fail_on_slow,
                "exit 1 when a row is SLOW or failed only in B (for CI)");
  CLI::Option* confirm = cmd->add_flag(
      "--confirm", args->confirm,
      "re-measure every FAST, SLOW and UNSURE row on this machine's device, A's and B's flags "
      "back to back in this process, round after round; a FAST or SLOW stands when the "
      "rounds' median speedup agrees, and where the screens said UNSURE or the other way "
      "every round must say it (needs A and B of one build and torch)");
  cmd->add_option("--confirm-rounds", args->confirm_rounds, "rounds of the confirmation pass")
      ->check(CLI::Range(kMinConfirmRounds, 50))
      ->capture_default_str();
  cmd->add_option("--confirm-deadline-s", args->confirm_deadline_s,
                  "stop the confirmation pass before a row that would end past this many seconds "
                  "(0: none); the rows not reached keep their screens' verdicts, and the same "
                  "command goes on from the journal (confirm/confirmations.jsonl)")
      ->check(CLI::NonNegativeNumber)
      ->needs(confirm)
      ->capture_default_str();
  add_compare_options(cmd, args->options);
  cmd->callback([&action, args] { action = [args] { return compare(*args); }; });
}

}  // namespace caliber
