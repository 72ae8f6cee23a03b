#pragma once

#include <vector>

namespace caliber {

// Order statistics and spread over a sample, shared by the timers and the compare verdicts.
double median(std::vector<double> values);
double quantile(std::vector<double> values, double q);  // linear interpolation, q in [0, 1]
double mean(const std::vector<double>& values);
double stddev(const std::vector<double>& values);  // sample standard deviation
// Median absolute deviation scaled to estimate sigma for normal data (x 1.4826).
double mad_sigma(const std::vector<double>& values);
// Coefficient of variation (stddev / mean); 0 for fewer than two values.
double cv(const std::vector<double>& values);
// Relative noise of the median estimate: robust sigma / sqrt(n) / median.
double relative_noise_of_median(const std::vector<double>& values);

}  // namespace caliber
