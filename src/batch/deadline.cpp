#include "batch/deadline.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <utility>

namespace caliber {
namespace {

constexpr auto kSampleInterval = std::chrono::milliseconds(200);

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// POSIX stat, not std::filesystem: the device image binds caliber's std::filesystem calls to
// libtorch's copies (CMakeLists.txt), and this runs every 200 ms of every attempt.
off_t size_of(const std::filesystem::path& file) {
  struct stat st {};
  return ::stat(file.c_str(), &st) == 0 ? st.st_size : 0;
}

}  // namespace

Deadline::Deadline(Clock::time_point start, double window_s, double stretch,
                   std::filesystem::path rows)
    : start_(start),
      last_row_(start),
      last_sample_(start),
      cap_(start + seconds(window_s * std::max(stretch, 1.0))),
      window_s_(window_s),
      rows_(stretch > 1 ? std::move(rows) : std::filesystem::path()) {
  // Without room to stretch, rows could not move it: nothing to watch.
  if (!rows_.empty()) size_ = size_of(rows_);
}

Deadline Deadline::at(Clock::time_point when) {
  Clock::time_point now = Clock::now();
  double window_s = std::max(0.0, seconds_between(now, when));
  return Deadline(now, window_s, 1.0, {});
}

Deadline Deadline::after_progress(double window_s, double stretch, std::filesystem::path rows) {
  return Deadline(Clock::now(), window_s, stretch, std::move(rows));
}

void Deadline::sample(Clock::time_point now) {
  if (rows_.empty() || now - last_sample_ < kSampleInterval) return;
  last_sample_ = now;
  off_t size = size_of(rows_);
  if (size > size_) {
    last_row_ = now;
    stretched_ = true;
  }
  size_ = size;
}

bool Deadline::passed() {
  Clock::time_point now = Clock::now();
  sample(now);
  if (now < cap_ && now < last_row_ + seconds(window_s_)) return false;
  passed_at_ = now;
  return true;
}

std::string Deadline::reason() const {
  // A worker whose output ended without an answer is reported as timed out too, by its client.
  Clock::time_point end = passed_at_ == Clock::time_point{} ? Clock::now() : passed_at_;
  double total = seconds_between(start_, end);
  if (!stretched_) return fmt::format("timed out after {:.0f} s", window_s_);
  if (end >= cap_) {
    return fmt::format(
        "timed out after {:.0f} s, the cap of its {:.0f} s timeout stretched by "
        "rows that kept coming",
        total, window_s_);
  }
  return fmt::format("timed out after {:.0f} s: no case measured in its last {:.0f} s", total,
                     window_s_);
}

}  // namespace caliber
