#include "batch/work_queue.h"

#include <gtest/gtest.h>

#include <set>

namespace caliber {
namespace {

TEST(WorkQueue, HomeLaneIsStableAcrossRuns) {
  // FNV-1a of "mm": a fixed number, not a per-process std::hash.
  EXPECT_EQ(stable_hash("mm"), 0x08a95707b550430full);
  EXPECT_EQ(home_lane("softmax", 4), home_lane("softmax", 4));
  EXPECT_EQ(stable_hash(""), 14695981039346656037ull);
  EXPECT_EQ(stable_hash("a"), 0xaf63dc4c8601ec8cull);
}

TEST(WorkQueue, EachLaneTakesItsHomeOpsFirst) {
  std::vector<std::string> ops = {"a", "b", "c", "d", "e", "f", "g", "h"};
  WorkQueue queue(ops, 3);
  for (size_t lane = 0; lane < 3; ++lane) {
    auto next = queue.next(lane);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(home_lane(ops[*next], 3), lane) << ops[*next];
  }
}

TEST(WorkQueue, IdleLaneStealsQueuedWork) {
  std::vector<std::string> ops = {"a", "b", "c", "d", "e", "f", "g", "h"};
  WorkQueue queue(ops, 2);
  std::set<size_t> taken;
  while (auto next = queue.next(0)) taken.insert(*next);  // lane 1 never asks
  EXPECT_EQ(taken.size(), ops.size());
  EXPECT_EQ(queue.queued(), 0u);
  EXPECT_FALSE(queue.next(1).has_value());
}

}  // namespace
}  // namespace caliber
