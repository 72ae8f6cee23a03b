#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include "batch/child_process.h"

namespace caliber {

// When an attempt counts as hung. A plain deadline passes at a fixed time. One that watches a
// run's results.jsonl (a row per measured case, written as it is measured) passes once no row
// has come for `window_s`, and at `stretch` x `window_s` from its start at the latest: a
// candidate's first calls (FlagGems compiles and tunes each dtype's kernels) can outlast a
// timeout scaled on the cases while rows keep coming, and killing such a run as hung costs the
// timeout and a retry each time (how often that happened: docs/results.md, thirty-ninth session).
class Deadline {
 public:
  static Deadline at(Clock::time_point when);
  static Deadline after_progress(double window_s, double stretch, std::filesystem::path rows);

  // Samples the watched file (at most every kSampleInterval); only growth counts, so the run
  // clearing an earlier attempt's rows at its start moves nothing.
  bool passed();

  // Why it passed (once passed() said so), for the hang's one-line error: "timed out after
  // 150 s", or how rows stretched it.
  std::string reason() const;

 private:
  Deadline(Clock::time_point start, double window_s, double stretch, std::filesystem::path rows);
  void sample(Clock::time_point now);

  Clock::time_point start_;
  Clock::time_point last_row_;  // the start until the watched file grows
  Clock::time_point last_sample_;
  Clock::time_point cap_;
  Clock::time_point passed_at_;
  double window_s_;
  std::filesystem::path rows_;  // empty: a plain deadline (or a stretch of 1)
  off_t size_ = 0;
  bool stretched_ = false;
};

}  // namespace caliber
