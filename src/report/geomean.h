#pragma once

#include <optional>
#include <vector>

namespace caliber {

// The geometric mean of ratios (speedups), the only mean under which a 2x and a 0.5x cancel.
// Non-positive and non-finite values are ignored; nullopt when nothing is left.
std::optional<double> geometric_mean(const std::vector<double>& ratios);

}  // namespace caliber
