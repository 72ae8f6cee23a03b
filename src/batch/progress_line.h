#pragma once

#include <string>

namespace caliber {

struct ProgressCounts {
  int total = 0;
  int done = 0;  // final, including ops completed by an earlier run of this batch
  int failed = 0;
  int running = 0;
  int done_here = 0;  // final in this run: the rate that predicts the rest
};

// "[batch] 12/150 done, 2 failed, 4 running, 1m05s elapsed, ETA 12m30s"
std::string render_progress(const ProgressCounts& counts, double elapsed_s);
std::string format_duration(double seconds);

// A single line redrawn in place on a terminal; nothing at all elsewhere (logs and pipes get
// batch.log and ops_status.csv instead).
class ProgressLine {
 public:
  explicit ProgressLine(bool wanted);
  void update(const ProgressCounts& counts, double elapsed_s);
  void finish();

 private:
  bool enabled_;
  size_t last_width_ = 0;
};

}  // namespace caliber
