#include "report/geomean.h"

#include <cmath>

namespace caliber {

std::optional<double> geometric_mean(const std::vector<double>& ratios) {
  double log_sum = 0;
  size_t n = 0;
  for (double r : ratios) {
    if (!(r > 0) || !std::isfinite(r)) continue;
    log_sum += std::log(r);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return std::exp(log_sum / static_cast<double>(n));
}

}  // namespace caliber
