#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"

namespace caliber {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw Error(ErrorKind::kInternal, "quantile of an empty sample");
  std::sort(values.begin(), values.end());
  double pos = q * static_cast<double>(values.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, values.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return values[lo] + (values[hi] - values[lo]) * frac;
}

double median(std::vector<double> values) { return quantile(std::move(values), 0.5); }

double mean(const std::vector<double>& values) {
  if (values.empty()) throw Error(ErrorKind::kInternal, "mean of an empty sample");
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double m = mean(values);
  double sum = 0;
  for (double v : values) sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

double mad_sigma(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double m = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - m));
  return 1.4826 * median(std::move(deviations));
}

double cv(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double m = mean(values);
  return m == 0 ? 0.0 : stddev(values) / m;
}

double relative_noise_of_median(const std::vector<double>& values) {
  if (values.size() < 2) return 1.0;
  double m = median(values);
  if (m == 0) return 0.0;
  // The median's standard error is about 1.2533 sigma / sqrt(n) for normal data.
  return 1.2533 * mad_sigma(values) / std::sqrt(static_cast<double>(values.size())) / m;
}

}  // namespace caliber
