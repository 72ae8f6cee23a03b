#pragma once

#include <optional>
#include <string>
#include <vector>

namespace caliber {

// Charts drawn as inline SVG, so the report needs no script library and no network.

// A labelled set of positive values (speedups, latencies) for one row of a distribution chart.
struct ValueGroup {
  std::string label;
  std::vector<double> values;
};

// One row per group on a shared log axis: every value as a dot, the quartiles as a box, the
// median as a bar, and `reference` (1.0 for speedups) as a vertical line.
std::string distribution_svg(const std::vector<ValueGroup>& groups, const std::string& axis_label,
                             std::optional<double> reference);

// One compared row for the A/B plot.
struct VerdictPoint {
  double speedup = 1;
  double low = 1;  // interval; equal to speedup when there is none
  double high = 1;
  std::string verdict;  // FAST, SLOW, SAME, UNSURE
  std::string label;    // tooltip
};

// Rows sorted by speedup along x, speedup on a log y axis with interval whiskers, coloured by
// verdict, over the band of differences smaller than `min_effect`.
std::string verdict_plot_svg(std::vector<VerdictPoint> points, double min_effect);

// The colour a verdict is drawn in (also used by the report's tables).
const char* verdict_colour(const std::string& verdict);

}  // namespace caliber
