#pragma once

#include <chrono>
#include <string>

namespace caliber {

// One self-overwriting status line on stderr, for a person watching a terminal; silent when
// disabled (not a TTY, --no-progress), so logs and pipes never see it.
class StatusLine {
 public:
  explicit StatusLine(bool enabled) : enabled_(enabled) {}
  ~StatusLine() { clear(); }
  void update(const std::string& text);
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace caliber
