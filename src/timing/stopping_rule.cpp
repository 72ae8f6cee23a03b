#include "timing/stopping_rule.h"

#include <algorithm>
#include <cmath>

#include "core/stats.h"

namespace caliber {
namespace {

int clamp_count(double count) {
  if (!(count >= 1)) return 1;  // also catches NaN from a zero-cost sample
  return static_cast<int>(std::min(count, static_cast<double>(StoppingRule::kMaxSamples)));
}

}  // namespace

int StoppingRule::next_batch(const std::vector<double>& samples, double elapsed_s,
                             double sample_cost_ms) const {
  if (settings_.policy == SamplePolicy::kFixed) {
    return next_fixed_batch(static_cast<int>(samples.size()), sample_cost_ms);
  }
  return next_adaptive_batch(samples, elapsed_s, sample_cost_ms);
}

int StoppingRule::next_fixed_batch(int have, double sample_cost_ms) const {
  // do_bench: n_repeat = max(1, int(rep / estimate_ms)).
  // A sample too short to measure (cost 0) gets do_bench_cudagraph's count for that case.
  int target = sample_cost_ms > 0 ? clamp_count(std::floor(settings_.rep_ms / sample_cost_ms))
                                  : kSamplesWhenFree;
  int remaining = target - have;
  if (remaining <= 0) return 0;
  int per_batch =
      sample_cost_ms > 0 ? clamp_count(kBatchSeconds * 1e3 / sample_cost_ms) : kSamplesWhenFree;
  return std::min(remaining, per_batch);
}

int StoppingRule::floor_samples(double sample_cost_ms) const {
  const int floor = settings_.min_samples;
  if (!(sample_cost_ms > 0) || floor <= kFewestSamples) return floor;
  const double fitting = std::floor(settings_.max_time_s * 1e3 / sample_cost_ms);
  if (fitting >= floor) return floor;
  return std::max(kFewestSamples, static_cast<int>(fitting));
}

int StoppingRule::next_adaptive_batch(const std::vector<double>& samples, double elapsed_s,
                                      double sample_cost_ms) const {
  int have = static_cast<int>(samples.size());
  // A row of a second a call took 10 samples and 10 s at least (mode, linalg_svdvals): the floor
  // gives way to the ceiling down to the samples a verdict needs.
  const int floor = floor_samples(sample_cost_ms);
  if (have == 0) return clamp_count(floor);
  if (elapsed_s >= settings_.max_time_s || have >= kMaxSamples) return 0;
  bool enough = have >= floor && elapsed_s >= settings_.min_time_s;
  if (enough && relative_noise_of_median(samples) <= settings_.noise_target) return 0;

  // Wall time per sample as observed (it includes flushes and host overhead); the device cost
  // only until something was observed.
  double per_sample_s = elapsed_s > 0 ? elapsed_s / have : sample_cost_ms / 1e3;
  if (per_sample_s <= 0) per_sample_s = 1e-6;
  // Geometric growth keeps the number of noise checks (each a sort) logarithmic in the samples.
  double want = std::max({static_cast<double>(floor - have), have / 2.0, 1.0});
  if (elapsed_s < settings_.min_time_s) {
    want = std::max(want, std::ceil((settings_.min_time_s - elapsed_s) / per_sample_s));
  }
  want = std::min(want, std::max(1.0, kBatchSeconds / per_sample_s));
  want = std::min(want, std::max(1.0, (settings_.max_time_s - elapsed_s) / per_sample_s));
  want = std::min(want, static_cast<double>(kMaxSamples - have));
  return clamp_count(want);
}

}  // namespace caliber
