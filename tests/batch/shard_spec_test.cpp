#include "batch/shard_spec.h"

#include <gtest/gtest.h>

#include <set>

#include "batch/work_queue.h"
#include "core/error.h"

namespace caliber {
namespace {

Selection selection_of(const std::vector<std::string>& ops, const std::string& dismissed) {
  Selection s;
  for (const auto& op : ops) s.ops.push_back(OpEntry{op, "pointwise", 1, {"float32"}});
  s.dismissed.push_back({OpEntry{dismissed, "", 0, {}}, OpListEntry{dismissed, "broken", "", "", {}, 0}});
  return s;
}

TEST(ShardSpec, ParsesIndexOverCount) {
  ShardSpec s = parse_shard_spec("--shard", "2/5");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(to_string(s), "2/5");
}

TEST(ShardSpec, RefusesOutOfRangeAndMalformedSpecs) {
  for (const char* bad : {"3/3", "0/0", "-1/2", "1", "a/b", "1/2x", "/2", "1/"}) {
    try {
      parse_shard_spec("--shard", bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find("accepted: I/N with 0 <= I < N"), std::string::npos);
    }
  }
}

TEST(ShardSpec, UsesTheLocalLanesStableHash) {
  for (const char* op : {"mm", "softmax", "add", "layer_norm"}) {
    EXPECT_EQ(shard_of(op, 7), static_cast<int>(home_lane(op, 7))) << op;
  }
}

TEST(ShardSpec, ShardsPartitionTheSelectionWithoutOverlap) {
  std::vector<std::string> ops = {"mm", "addmm", "bmm", "softmax", "add", "mul", "sum", "max"};
  Selection all = selection_of(ops, "dismissed_op");
  std::multiset<std::string> seen;
  for (int i = 0; i < 3; ++i) {
    Selection part = shard_selection(all, ShardSpec{i, 3});
    for (const auto& op : part.ops) {
      EXPECT_EQ(shard_of(op.name, 3), i);
      seen.insert(op.name);
    }
    for (const auto& [op, entry] : part.dismissed) seen.insert(op.name);
  }
  EXPECT_EQ(seen.size(), ops.size() + 1);
  for (const auto& op : ops) EXPECT_EQ(seen.count(op), 1u) << op;
  EXPECT_EQ(seen.count("dismissed_op"), 1u);
}

}  // namespace
}  // namespace caliber
