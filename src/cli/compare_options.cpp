#include "cli/compare_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/caliber_gate.h"

namespace caliber {

void add_compare_options(CLI::App* command, CompareOptions& options) {
  VerdictOptions& v = options.verdict;
  command
      ->add_option("--allow-mismatch", options.allow_mismatch,
                   fmt::format("compare despite this caliber field differing; recorded in the "
                               "output (repeatable; fields: {})",
                               fmt::join(gate_fields(), ", ")))
      ->take_all();
  command->add_option(
      "--calibration", options.calibration_choice,
      "A/A drift calibration (caliber calibrate): a file, or none (default: the shipped one for "
      "A's device model, when there is one)");
  command->add_option("--min-effect", v.min_effect, "smallest relative change that counts")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command
      ->add_option("--max-noise", v.max_noise,
                   "robust spread (MAD sigma / median) above which a row is UNSURE")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--confidence", v.confidence, "coverage of the bootstrap interval")
      ->check(CLI::Range(0.5, 0.9999))
      ->capture_default_str();
  command->add_option("--resamples", v.resamples, "bootstrap resamples per row")
      ->check(CLI::Range(100, 100000))
      ->capture_default_str();
  command->add_option("--min-samples", v.min_samples, "fewer samples on a side: UNSURE")
      ->check(CLI::Range(2, 1000000))
      ->capture_default_str();
}

}  // namespace caliber
