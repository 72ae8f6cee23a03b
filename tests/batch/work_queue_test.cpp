#include "batch/work_queue.h"

#include <gtest/gtest.h>

#include <set>

namespace caliber {
namespace {

TEST(WorkQueue, HomeLaneIsStableAcrossRuns) {
  // FNV-1a of "mm" is 0x08a95707b550430f: a fixed number, not a per-process std::hash.
  EXPECT_EQ(home_lane("mm", 1000), 0x08a95707b550430full % 1000);
  EXPECT_EQ(home_lane("softmax", 4), home_lane("softmax", 4));
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

TEST(WorkQueue, WithCostsEachLaneRunsItsLongestOpFirst) {
  std::vector<std::string> ops = {"a", "b", "c", "d", "e", "f", "g", "h"};
  std::vector<double> costs = {1, 8, 3, 5, 2, 7, 4, 6};
  WorkQueue queue(ops, 1, costs);
  std::vector<double> seen;
  while (auto next = queue.next(0)) seen.push_back(costs[*next]);
  EXPECT_EQ(seen, (std::vector<double>{8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST(WorkQueue, WithoutCostsTheGivenOrderStays) {
  std::vector<std::string> ops = {"a", "b", "c", "d"};
  WorkQueue queue(ops, 1);
  std::vector<size_t> seen;
  while (auto next = queue.next(0)) seen.push_back(*next);
  EXPECT_EQ(seen, (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(WorkQueue, IdleLaneStealsTheShortestOpOfTheLaneWithMostWorkLeft) {
  // Two lanes' worth of ops all homed on one lane of three: the thief takes from the back of the
  // lane with the most cost left, which in longest-first order is that lane's shortest op.
  std::vector<std::string> ops;
  std::vector<double> costs;
  for (int i = 0; i < 40 && ops.size() < 4; ++i) {
    std::string name = "op" + std::to_string(i);
    if (home_lane(name, 3) == 0) {
      ops.push_back(name);
      costs.push_back(10.0 * static_cast<double>(ops.size()));
    }
  }
  ASSERT_EQ(ops.size(), 4u);
  WorkQueue queue(ops, 3, costs);
  auto stolen = queue.next(1);
  ASSERT_TRUE(stolen.has_value());
  EXPECT_EQ(costs[*stolen], 10.0);
  auto own = queue.next(0);
  ASSERT_TRUE(own.has_value());
  EXPECT_EQ(costs[*own], 40.0);
}

}  // namespace
}  // namespace caliber
