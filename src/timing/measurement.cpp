#include "timing/measurement.h"

#include <algorithm>

#include "core/error.h"
#include "core/stats.h"

namespace caliber {
namespace {

// The median over repeats of one per-repeat statistic: a single slow repeat (another process,
// a clock dip) moves it less than pooling would.
template <typename Statistic>
double median_over_runs(const std::vector<std::vector<double>>& runs, Statistic statistic) {
  std::vector<double> values;
  values.reserve(runs.size());
  for (const auto& run : runs) values.push_back(statistic(run));
  return median(std::move(values));
}

}  // namespace

void summarize(const std::vector<std::vector<double>>& runs, ReturnMode mode,
               const std::vector<double>& quantiles, Measurement& m) {
  m.samples_ms.clear();
  for (const auto& run : runs) m.samples_ms.insert(m.samples_ms.end(), run.begin(), run.end());
  if (m.samples_ms.empty()) throw Error(ErrorKind::kInternal, "a measurement took no samples");
  m.repeat = static_cast<int>(runs.size());
  m.repeat_medians_ms.clear();
  for (const auto& run : runs) m.repeat_medians_ms.push_back(median(run));
  m.median_ms = median(m.repeat_medians_ms);
  m.mean_ms = mean(m.samples_ms);
  auto [lowest, highest] = std::minmax_element(m.samples_ms.begin(), m.samples_ms.end());
  m.min_ms = *lowest;
  m.max_ms = *highest;
  m.noise = relative_noise_of_median(m.samples_ms);
  m.quantiles_ms.clear();
  for (double q : quantiles) m.quantiles_ms.emplace_back(q, quantile(m.samples_ms, q));
  m.return_mode = mode;
  switch (mode) {
    case ReturnMode::kMedian:
    case ReturnMode::kAll:  // the row carries every sample; its headline is the median
      m.latency_ms = m.median_ms;
      break;
    case ReturnMode::kMean:
      m.latency_ms = median_over_runs(runs, [](const auto& run) { return mean(run); });
      break;
    case ReturnMode::kMin:
      m.latency_ms = m.min_ms;
      break;
    case ReturnMode::kMax:
      m.latency_ms = m.max_ms;
      break;
  }
}

void fill_result_row(const Measurement& m, ResultRow& row) {
  row.timer_used = to_string(m.timer_used);
  row.cache = cache_caliber(m.cache, m.flush_mb, m.flush_method);
  row.policy = to_string(m.policy);
  row.repeat = m.repeat;
  row.warmup_calls = m.warmup_calls;
  row.warmup_ms = m.warmup_ms;
  row.markers.insert(row.markers.end(), m.markers.begin(), m.markers.end());
  row.throttled_samples = m.throttled_samples;
  row.samples_ms = m.samples_ms;
  row.sample_count = static_cast<int>(m.samples_ms.size());
  row.latency_ms = m.latency_ms;
  row.median_ms = m.median_ms;
  row.mean_ms = m.mean_ms;
  row.min_ms = m.min_ms;
  row.max_ms = m.max_ms;
  row.noise = m.noise;
  row.quantiles_ms = m.quantiles_ms;
  row.wall_s = m.wall_s;
  row.measure_ms = m.wall_s * 1e3;
  row.capture_ms = m.capture_ms;
  row.graph_captures = m.graph_captures;
  row.capture_spread = m.capture_spread;
  row.activities_per_call = m.activities;
  row.kernel_only_us.reset();
  if (m.activities) row.kernel_only_us = m.activities->kernel_us;
  row.selftest_delay_us = m.selftest_delay_us;
  row.selftest_slowdown = m.selftest_slowdown;
}

}  // namespace caliber
