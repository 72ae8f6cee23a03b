#include "report/svg_chart.h"

#include <initializer_list>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/stats.h"
#include "report/markup.h"

namespace caliber {

namespace {

// Maps positive values to pixels on a log10 scale; ticks at 1-2-5 steps.
class LogAxis {
 public:
  LogAxis(double lo, double hi, double p0, double p1) : p0_(p0), p1_(p1) {
    lo_ = std::log10(lo);
    hi_ = std::log10(hi);
    if (hi_ - lo_ < 0.2) {  // a degenerate range still gets a readable span
      double mid = (lo_ + hi_) / 2;
      lo_ = mid - 0.1;
      hi_ = mid + 0.1;
    }
  }
  double px(double v) const {
    double t = (std::log10(std::max(v, 1e-300)) - lo_) / (hi_ - lo_);
    return p0_ + std::clamp(t, 0.0, 1.0) * (p1_ - p0_);
  }
  std::vector<double> ticks() const {
    std::vector<double> out;
    for (int e = static_cast<int>(std::floor(lo_)); e <= static_cast<int>(std::ceil(hi_)); ++e) {
      for (double m : {1.0, 2.0, 5.0}) {
        double v = m * std::pow(10.0, e);
        if (inside(v)) out.push_back(v);
      }
    }
    // Too many labels for a long span: keep the decades only.
    if (out.size() > 12) {
      std::erase_if(out, [](double v) {
        double l = std::log10(v);
        return std::fabs(l - std::round(l)) > 1e-9;
      });
    }
    // A short span (speedups near 1) gets evenly spaced round values instead.
    if (out.size() < 3) {
      double lo = std::pow(10.0, lo_), hi = std::pow(10.0, hi_);
      double raw = (hi - lo) / 8;
      double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
      double step = magnitude;
      for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * magnitude >= raw) {
          step = m * magnitude;
          break;
        }
      }
      out.clear();
      for (double v = std::ceil(lo / step) * step; v <= hi; v += step) {
        if (inside(v)) out.push_back(std::round(v / step) * step);
      }
    }
    return out;
  }

 private:
  bool inside(double v) const {
    double l = std::log10(v);
    return l >= lo_ - 1e-9 && l <= hi_ + 1e-9;
  }
  double lo_, hi_, p0_, p1_;
};

std::string tick_label(double v) { return fmt::format("{:g}", v); }

// The value range of a chart, padded by 10% in log space.
std::pair<double, double> padded_range(double lo, double hi) {
  double pad = std::max(std::log10(hi / lo) * 0.1, 0.02);
  return {lo / std::pow(10.0, pad), hi * std::pow(10.0, pad)};
}

}  // namespace

const char* verdict_colour(const std::string& verdict) {
  if (verdict == "FAST") return "#2e7d32";
  if (verdict == "SLOW") return "#c62828";
  if (verdict == "SAME") return "#607d8b";
  if (verdict == "UNSURE") return "#f9a825";
  return "#8e24aa";
}

std::string distribution_svg(const std::vector<ValueGroup>& groups, const std::string& axis_label,
                             std::optional<double> reference) {
  double lo = INFINITY, hi = 0;
  for (const auto& g : groups) {
    for (double v : g.values) {
      if (v > 0 && std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  if (reference) {
    lo = std::min(lo, *reference);
    hi = std::max(hi, *reference);
  }
  if (!(hi > 0)) return "<p class=\"empty\">no values to plot</p>";
  auto [dlo, dhi] = padded_range(lo, hi);
  const double width = 900, left = 170, right = 770, row_h = 30, top = 10;
  const double height = top + row_h * static_cast<double>(groups.size()) + 44;
  LogAxis x(dlo, dhi, left, right);

  std::string svg = fmt::format(
      "<svg class=\"chart distribution\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">\n",
      width, height, html_escape(axis_label));
  double axis_y = top + row_h * static_cast<double>(groups.size());
  for (double t : x.ticks()) {
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" class=\"grid\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" class=\"tick\" text-anchor=\"middle\">{4}</text>\n",
        x.px(t), top, axis_y, axis_y + 14, tick_label(t));
  }
  if (reference) {
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" class=\"reference\"/>\n",
        x.px(*reference), top, axis_y);
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const auto& g = groups[i];
    double cy = top + row_h * (static_cast<double>(i) + 0.5);
    std::vector<double> values;
    for (double v : g.values) {
      if (v > 0 && std::isfinite(v)) values.push_back(v);
    }
    svg +=
        fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"label\" text-anchor=\"end\">{}</text>\n",
                    left - 8, cy + 4, html_escape(g.label));
    if (values.empty()) continue;
    double q1 = quantile(values, 0.25), q2 = quantile(values, 0.5), q3 = quantile(values, 0.75);
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" class=\"box\"/>"
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"median\"/>\n",
        x.px(q1), cy - 9, std::max(x.px(q3) - x.px(q1), 1.0), 18, x.px(q2), cy - 11, x.px(q2),
        cy + 11);
    for (size_t k = 0; k < values.size(); ++k) {
      // Deterministic jitter spreads overlapping dots without randomness in the artifact.
      double jitter = (static_cast<double>((k * 7919) % 13) - 6) * 1.2;
      svg += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.6\" class=\"dot\"><title>{}: {:.4g}</title>"
          "</circle>\n",
          x.px(values[k]), cy + jitter, html_escape(g.label), values[k]);
    }
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"note\">n={} median {:.3g}</text>\n",
                       right + 10, cy + 4, values.size(), q2);
  }
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{}\" class=\"axis-label\" text-anchor=\"middle\">{}"
      "</text>\n</svg>\n",
      (left + right) / 2, axis_y + 34, html_escape(axis_label));
  return svg;
}

std::string verdict_plot_svg(std::vector<VerdictPoint> points, double min_effect) {
  std::erase_if(points, [](const VerdictPoint& p) { return !(p.speedup > 0); });
  if (points.empty()) return "<p class=\"empty\">no compared rows to plot</p>";
  std::sort(points.begin(), points.end(),
            [](const VerdictPoint& a, const VerdictPoint& b) { return a.speedup < b.speedup; });
  double band_hi = 1 + min_effect, band_lo = 1 / band_hi;
  double lo = band_lo, hi = band_hi;
  for (const auto& p : points) {
    lo = std::min({lo, p.low > 0 ? p.low : p.speedup, p.speedup});
    hi = std::max({hi, p.high, p.speedup});
  }
  auto [dlo, dhi] = padded_range(lo, hi);
  const double width = 900, height = 340, left = 60, right = 880, top = 12, bottom = 300;
  LogAxis y(dlo, dhi, bottom, top);
  double step = (right - left) / static_cast<double>(points.size());

  std::string svg = fmt::format(
      "<svg class=\"chart verdicts\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"A/B verdicts\">\n",
      width, height);
  svg += fmt::format(
      "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" class=\"band\">"
      "<title>differences below {:.1f}% do not count</title></rect>\n",
      left, y.px(band_hi), right - left, y.px(band_lo) - y.px(band_hi), 100 * min_effect);
  for (double t : y.ticks()) {
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"end\">{}</text>\n",
        left, y.px(t), right, y.px(t), left - 6, y.px(t) + 4, tick_label(t));
  }
  svg +=
      fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"reference\"/>\n",
                  left, y.px(1), right, y.px(1));
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    double cx = left + step * (static_cast<double>(i) + 0.5);
    const char* colour = verdict_colour(p.verdict);
    std::string title = fmt::format("{}: {} speedup {:.4f} [{:.4f}, {:.4f}]", p.verdict,
                                    html_escape(p.label), p.speedup, p.low, p.high);
    if (p.high > p.low) {
      svg += fmt::format(
          "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" "
          "class=\"whisker\"/>",
          cx, y.px(p.low), y.px(p.high), colour);
    }
    svg += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.2\" fill=\"{}\" class=\"point\" "
        "data-verdict=\"{}\"><title>{}</title></circle>\n",
        cx, y.px(p.speedup), colour, p.verdict, title);
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"axis-label\" text-anchor=\"middle\">rows, sorted by "
      "speedup</text><text x=\"14\" y=\"{}\" class=\"axis-label\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 14 {})\">speedup A/B (log)</text>\n</svg>\n",
      (left + right) / 2, bottom + 30, (top + bottom) / 2, (top + bottom) / 2);
  return svg;
}

}  // namespace caliber
