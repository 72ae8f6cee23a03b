#include "cli/status_line.h"

#include <fmt/format.h>

namespace caliber {

void StatusLine::update(const std::string& text) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;  // no flicker
  last_ = now;
  fmt::print(stderr, "\r\x1b[2K{}", text.substr(0, 150));
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::clear() {
  if (!enabled_ || !shown_) return;
  fmt::print(stderr, "\r\x1b[2K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace caliber
