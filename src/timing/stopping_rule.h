#pragma once

#include <vector>

#include "core/caliber_options.h"

namespace caliber {

// How many samples a measurement takes. Fixed mirrors triton's do_bench (rep_ms worth of device
// time); adaptive stops as soon as the estimate is as precise as asked, so cheap stable ops
// finish early and noisy ones get more samples, within a time budget.
struct SamplingSettings {
  SamplePolicy policy = SamplePolicy::kFixed;
  double warmup_ms = 25;
  double rep_ms = 100;
  double noise_target = 0.005;  // relative noise of the median estimate
  int min_samples = 10;
  double min_time_s = 0.005;
  double max_time_s = 1.0;
};

class StoppingRule {
 public:
  explicit StoppingRule(const SamplingSettings& settings) : settings_(settings) {}

  // How many samples to take next; 0 when the measurement is done. `elapsed_s` is the wall time
  // spent sampling so far and `sample_cost_ms` the device time of one sample, which sizes the
  // first batch before any wall time is known. Batches stay short (about kBatchSeconds) so that
  // the throttle guard reads clocks often and the adaptive rule checks noise often.
  int next_batch(const std::vector<double>& samples, double elapsed_s, double sample_cost_ms) const;

  static constexpr double kBatchSeconds = 0.01;
  static constexpr int kMaxSamples = 100000;
  static constexpr int kSamplesWhenFree = 1000;
  // The fewest samples a verdict takes: compare's --min-samples default. The adaptive floor goes
  // no lower when a sample is too long for min_samples of them inside max_time_s.
  static constexpr int kFewestSamples = 5;

  // Under the adaptive policy: min_samples, or what fits in max_time_s when that is fewer, but
  // never under kFewestSamples (nor over min_samples).
  int floor_samples(double sample_cost_ms) const;

 private:
  int next_fixed_batch(int have, double sample_cost_ms) const;
  int next_adaptive_batch(const std::vector<double>& samples, double elapsed_s,
                          double sample_cost_ms) const;

  SamplingSettings settings_;
};

}  // namespace caliber
