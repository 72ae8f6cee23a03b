#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "report/drift_calibration.h"
#include "report/text_table.h"

namespace caliber {
namespace {

struct CalibrateArgs {
  std::vector<std::string> screens;
  std::string output;
  CalibrationOptions options;
};

int calibrate(const CalibrateArgs& args) {
  std::vector<RunCollection> screens;
  for (const auto& path : args.screens) screens.push_back(load_run_collection(path));
  DriftCalibration cal = calibrate_drift(screens, args.options);
  write_file_atomic(args.output, to_json(cal).dump(1) + "\n");
  TextTable table({"timer", "latency", "rows", "band"});
  for (const auto& c : cal.classes) {
    table.add_row({c.timer, fmt::format("1e{} us", c.decade), std::to_string(c.rows),
                   fmt::format("{:.2f}%", 100 * c.band)});
  }
  fmt::print("{}", table.render(false));
  fmt::print(
      "{} A/A row pairs from {} screens of {}: FAST/SLOW {:.2f}% without bands, {:.2f}% at the "
      "class bands (target {:.2f}%); {} rows keep a wider band of their own\nwrote {}\n",
      cal.rows, cal.screens.size(), cal.device_model, 100 * cal.uncalibrated_rate,
      100 * cal.in_sample_rate, 100 * cal.target_rate, cal.row_needs.size(), args.output);
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("calibrate",
                                 "Learn the run-to-run drift of two or more screens of one build "
                                 "(A/A) for compare's verdicts");
  auto args = std::make_shared<CalibrateArgs>();
  cmd->add_option("screens", args->screens, "run or batch directories of one build and caliber")
      ->required();
  cmd->add_option("-o,--output", args->output, "the calibration file to write")->required();
  cmd->add_option("--target-rate", args->options.target_rate,
                  "A/A false-verdict rate the class bands aim at")
      ->check(CLI::Range(0.0001, 0.5))
      ->capture_default_str();
  cmd->add_option("--confidence", args->options.verdict.confidence,
                  "coverage of the bootstrap interval (as compare's)")
      ->check(CLI::Range(0.5, 0.9999))
      ->capture_default_str();
  cmd->callback([&action, args] { action = [args] { return calibrate(*args); }; });
}

}  // namespace caliber
