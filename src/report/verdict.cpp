#include "report/verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/fnv1a.h"
#include "core/stats.h"

namespace caliber {

namespace {

// splitmix64: tiny, seedable, and the same on every standard library (std::*_distribution is
// not), so a verdict reproduces anywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

// Median in linear time; reorders `values`.
double median_in_place(std::vector<double>& values) {
  size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
  double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(mid));
  return (lower + upper) / 2;
}

double resampled_median(const std::vector<double>& sample, std::vector<double>& buffer,
                        SplitMix64& rng) {
  buffer.resize(sample.size());
  for (double& v : buffer) v = sample[rng.below(sample.size())];
  return median_in_place(buffer);
}

double relative_spread(const std::vector<double>& sample) {
  double m = median(sample);
  return m > 0 ? mad_sigma(sample) / m : 0.0;
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFast:
      return "FAST";
    case Verdict::kSlow:
      return "SLOW";
    case Verdict::kSame:
      return "SAME";
    case Verdict::kUnsure:
      return "UNSURE";
  }
  return "UNSURE";
}

uint64_t seed_for(std::string_view key) { return fnv1a(key); }

SampleComparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                                 const VerdictOptions& options, uint64_t seed) {
  SampleComparison out;
  out.band = options.min_effect;
  size_t min_samples = static_cast<size_t>(std::max(options.min_samples, 1));
  if (a.size() < min_samples || b.size() < min_samples) {
    if (!a.empty() && !b.empty()) out.speedup = median(a) / median(b);
    out.reason =
        fmt::format("too few samples (A {}, B {}; at least {})", a.size(), b.size(), min_samples);
    return out;
  }
  double median_a = median(a);
  double median_b = median(b);
  if (!(median_a > 0) || !(median_b > 0)) {
    out.reason = "a median latency is not positive";
    return out;
  }
  out.speedup = median_a / median_b;
  out.noise_a = relative_spread(a);
  out.noise_b = relative_spread(b);

  SplitMix64 rng(seed);
  std::vector<double> buffer;
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    double ra = resampled_median(a, buffer, rng);
    double rb = resampled_median(b, buffer, rng);
    ratios.push_back(ra / rb);
  }
  double tail = (1 - options.confidence) / 2;
  out.ci_low = quantile(ratios, tail);
  out.ci_high = quantile(std::move(ratios), 1 - tail);

  double noisiest = std::max(out.noise_a, out.noise_b);
  double faster = 1 + options.min_effect;
  double slower = 1 / faster;
  if (noisiest > options.max_noise) {
    out.reason = fmt::format("noise {:.1f}% above the {:.1f}% limit", 100 * noisiest,
                             100 * options.max_noise);
  } else if (out.ci_low > faster) {
    out.verdict = Verdict::kFast;
  } else if (out.ci_high < slower) {
    out.verdict = Verdict::kSlow;
  } else if (out.ci_low >= slower && out.ci_high <= faster) {
    out.verdict = Verdict::kSame;
  } else {
    out.reason = fmt::format("interval [{:.4f}, {:.4f}] straddles the {:.1f}% band", out.ci_low,
                             out.ci_high, 100 * options.min_effect);
  }
  return out;
}

}  // namespace caliber
