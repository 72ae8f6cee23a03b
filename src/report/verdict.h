#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// What the samples of one row say about B against A.
enum class Verdict {
  kFast,    // B is faster by at least the minimum effect, beyond doubt
  kSlow,    // B is slower by at least the minimum effect, beyond doubt
  kSame,    // the whole interval lies within the minimum effect
  kUnsure,  // too noisy, too few samples, or the interval straddles the effect threshold
};
const char* verdict_name(Verdict verdict);

// The thresholds of the verdict, all user-visible as compare flags.
struct VerdictOptions {
  // Speedups within [1/(1+e), 1+e] do not matter; a calibration can widen a row's band.
  double min_effect = 0.02;
  double max_noise = 0.10;   // robust spread (MAD sigma / median) of either side above it: UNSURE
  double confidence = 0.95;  // coverage of the bootstrap interval
  int resamples = 1000;      // bootstrap resamples
  int min_samples = 5;       // fewer samples on either side: UNSURE
};

struct SampleComparison {
  Verdict verdict = Verdict::kUnsure;
  double speedup = 0;  // median(A) / median(B): above 1, B is faster
  double ci_low = 0;   // bootstrap percentile interval of that speedup
  double ci_high = 0;
  double noise_a = 0;  // robust spread of each side's samples
  double noise_b = 0;
  double band = 0;     // the "no difference" band the verdict used (relative)
  std::string reason;  // why the verdict is UNSURE, or SAME without the samples; empty otherwise
};

// Compares two sample sets (latencies, lower is better). The interval resamples both sides
// `resamples` times and takes percentiles of median(A*) / median(B*); `seed` makes it
// reproducible (callers derive it from the row, so the order of rows does not matter).
SampleComparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                                 const VerdictOptions& options, uint64_t seed);

// FNV-1a of a row's key: a stable seed for compare_samples.
uint64_t seed_for(std::string_view key);

}  // namespace caliber
