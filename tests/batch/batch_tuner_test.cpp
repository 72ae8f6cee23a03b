// Tuner records across batches (--replay-from) and the parallel record pass (--shard i/N).
#include <gtest/gtest.h>

#include "batch_harness.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

using testing::BatchHarness;

TEST(BatchTuner, ReplayFromGivesEachOpItsEarlierRecords) {
  BatchHarness h("replay");
  auto earlier = h.dir() / "earlier";
  write_file_atomic(earlier / "ops/ok_a/tunableop_results.csv", "Validator,PT_VERSION,2.11\n");
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b", "--replay-from", earlier.string()}), 0) << h.output();
  auto a = h.calls("run op=ok_a ");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(BatchHarness::field(a[0], "tuner"), "replay");
  EXPECT_EQ(BatchHarness::field(a[0], "tuner_file"),
            (earlier / "ops/ok_a/tunableop_results.csv").string());
  auto b = h.calls("run op=ok_b ");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(BatchHarness::field(b[0], "tuner"), "");
}

TEST(BatchTuner, ReplayOfAnOpWithoutEarlierRecordsRunsItWithTheTunerOff) {
  BatchHarness h("replay_none");
  auto earlier = h.dir() / "earlier";
  write_file_atomic(earlier / "ops/ok_a/tunableop_results.csv", "Validator,PT_VERSION,2.11\n");
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b", "--tuner", "replay", "--replay-from", earlier.string()}),
            0)
      << h.output();
  auto a = h.calls("run op=ok_a ");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(BatchHarness::field(a[0], "tuner"), "replay");
  auto b = h.calls("run op=ok_b ");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(BatchHarness::field(b[0], "tuner"), "off");
  EXPECT_EQ(BatchHarness::field(b[0], "tuner_file"), "");
}

TEST(BatchTuner, RecordModeGivesEachOpItsOwnRecordsFile) {
  BatchHarness h("record");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--tuner", "record"}), 0) << h.output();
  auto a = h.calls("run op=ok_a ");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(BatchHarness::field(a[0], "tuner"), "record");
  EXPECT_EQ(BatchHarness::field(a[0], "tuner_file"),
            (h.out() / "ops/ok_a/tunableop_results.csv").string());
}

TEST(BatchTuner, ParallelWarmupShardsTheRecordPassAndReplaysTheMergedRecords) {
  BatchHarness h("warmup");
  EXPECT_EQ(h.run({"--ops", "mm,ok_a", "--level", "comprehensive", "--parallel-warmup-gpus", "2",
                   "--devices", "0,1"}),
            0)
      << h.output();
  auto records = h.calls("run op=mm ");
  ASSERT_EQ(records.size(), 3u);  // two shards, then the measured pass
  std::set<std::string> shards;
  std::set<std::string> lanes;
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(BatchHarness::field(records[i], "tuner"), "record");
    shards.insert(BatchHarness::field(records[i], "shard"));
    lanes.insert(BatchHarness::field(records[i], "lane"));
  }
  EXPECT_EQ(shards, (std::set<std::string>{"0/2", "1/2"}));
  EXPECT_EQ(lanes, (std::set<std::string>{"0", "1"}));
  auto merged = h.out() / "ops/mm/tunableop_results.csv";
  EXPECT_EQ(BatchHarness::field(records[2], "tuner"), "replay");
  EXPECT_EQ(BatchHarness::field(records[2], "tuner_file"), merged.string());
  EXPECT_EQ(BatchHarness::field(records[2], "shard"), "");

  std::string text = BatchHarness::read_or_empty(merged);
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("Validator,PT_VERSION"), 1u) << text;
  EXPECT_EQ(count("GemmTunableOp"), 7u) << text;  // six shapes, plus the shared one once
  EXPECT_EQ(BatchHarness::field(h.calls("run op=ok_a ")[0], "tuner"), "");
}

TEST(BatchTuner, NoParallelWarmupAtCoreLevel) {
  BatchHarness h("warmupcore");
  EXPECT_EQ(h.run({"--ops", "mm", "--parallel-warmup-gpus", "2", "--devices", "0,1"}), 0);
  EXPECT_EQ(h.calls("run op=mm ").size(), 1u);
}

}  // namespace
}  // namespace caliber
