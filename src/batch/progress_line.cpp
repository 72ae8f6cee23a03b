#include "batch/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace caliber {

std::string format_duration(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string render_progress(const ProgressCounts& c, double elapsed_s) {
  std::string line = fmt::format("[batch] {}/{} done, {} failed, {} running, {} elapsed", c.done,
                                 c.total, c.failed, c.running, format_duration(elapsed_s));
  int left = c.total - c.done;
  if (left > 0 && c.done_here > 0) {
    line += fmt::format(", ETA {}", format_duration(elapsed_s / c.done_here * left));
  }
  return line;
}

ProgressLine::ProgressLine(bool wanted) : enabled_(wanted && ::isatty(STDERR_FILENO) == 1) {}

void ProgressLine::update(const ProgressCounts& counts, double elapsed_s) {
  if (!enabled_) return;
  std::string line = render_progress(counts, elapsed_s);
  size_t width = line.size();
  if (width < last_width_) line.append(last_width_ - width, ' ');
  last_width_ = width;
  fmt::print(stderr, "\r{}", line);
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (enabled_ && last_width_ > 0) fmt::print(stderr, "\n");
  last_width_ = 0;
}

}  // namespace caliber
