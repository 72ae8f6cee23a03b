#include "batch/progress_line.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(ProgressLine, ShowsDoneFailuresRunningAndEta) {
  ProgressCounts c{.total = 10, .done = 4, .failed = 1, .running = 2, .done_here = 2};
  EXPECT_EQ(render_progress(c, 60),
            "[batch] 4/10 done, 1 failed, 2 running, 1m00s elapsed, ETA 3m00s");
}

TEST(ProgressLine, NoEtaBeforeTheFirstOpOfThisRunFinishes) {
  ProgressCounts c{.total = 10, .done = 4, .failed = 0, .running = 1, .done_here = 0};
  EXPECT_EQ(render_progress(c, 5), "[batch] 4/10 done, 0 failed, 1 running, 5s elapsed");
}

TEST(ProgressLine, FormatsLongDurationsInHours) {
  EXPECT_EQ(format_duration(3 * 3600 + 125), "3h02m");
}

}  // namespace
}  // namespace caliber
