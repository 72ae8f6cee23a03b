#include "report/flaggems_log.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/atomic_file.h"

namespace caliber {
namespace {

std::vector<ResultRow> fixture_rows() {
  return parse_flaggems_log(read_file(std::string(CALIBER_TEST_DATA) + "/flaggems_run.log"));
}

const ResultRow& find(const std::vector<ResultRow>& rows, const std::string& op,
                      const std::string& provider, size_t nth = 0) {
  for (const auto& r : rows) {
    if (r.op == op && r.provider == provider && nth-- == 0) return r;
  }
  throw std::runtime_error("no row " + op + " " + provider);
}

TEST(FlagGemsLog, TableWithTflopsGivesBaselineAndCandidateRows) {
  auto rows = fixture_rows();
  const ResultRow& base = find(rows, "mm", "baseline");
  const ResultRow& gems = find(rows, "mm", "gems");
  EXPECT_EQ(base.dtype, "float16");
  EXPECT_DOUBLE_EQ(base.median_ms, 0.009616);
  EXPECT_DOUBLE_EQ(gems.median_ms, 0.200320);
  ASSERT_TRUE(gems.baseline_ms.has_value());
  EXPECT_DOUBLE_EQ(*gems.baseline_ms, 0.009616);
  ASSERT_TRUE(gems.speedup.has_value());
  EXPECT_DOUBLE_EQ(*gems.speedup, 0.048);
  EXPECT_DOUBLE_EQ(gems.tflops, 0.565);
  EXPECT_EQ(gems.size_detail, "[torch.Size([384, 384]), torch.Size([384, 384])]");
  EXPECT_EQ(gems.shape, (std::vector<std::vector<long>>{{384, 384}, {384, 384}}));
  EXPECT_TRUE(gems.samples_ms.empty());
}

TEST(FlagGemsLog, TableWithoutTflopsReadsSpeedupAndSizeDetail) {
  auto rows = fixture_rows();
  const ResultRow& gems = find(rows, "softmax", "gems");
  EXPECT_EQ(gems.dtype, "bfloat16");
  EXPECT_DOUBLE_EQ(gems.median_ms, 0.065667);
  EXPECT_DOUBLE_EQ(*gems.speedup, 2.006);
  EXPECT_DOUBLE_EQ(gems.tflops, 0);
  EXPECT_EQ(gems.size_detail, "[torch.Size([1048576])]");
}

TEST(FlagGemsLog, FailedRowWithNotAvailableValuesIsFailedCandidate) {
  auto rows = fixture_rows();
  const ResultRow& base = find(rows, "softmax", "baseline", 1);
  const ResultRow& gems = find(rows, "softmax", "gems", 1);
  EXPECT_EQ(base.status, RowStatus::kSuccess);
  EXPECT_DOUBLE_EQ(base.median_ms, 0.099456);
  EXPECT_EQ(gems.status, RowStatus::kFailed);
  EXPECT_FALSE(gems.speedup.has_value());
  EXPECT_EQ(gems.size_detail, "[torch.Size([64, 64]), 1]");
}

TEST(FlagGemsLog, GbpsColumnsGoToTheirSides) {
  auto rows = fixture_rows();
  EXPECT_DOUBLE_EQ(find(rows, "add", "baseline").gbps, 2206.1);
  EXPECT_DOUBLE_EQ(find(rows, "add", "gems").gbps, 2122.8);
  EXPECT_DOUBLE_EQ(*find(rows, "add", "gems").speedup, 0.962);
}

TEST(FlagGemsLog, TitleWithoutLevelStillOpensATable) {
  auto rows = fixture_rows();
  const ResultRow& gems = find(rows, "sort", "gems");
  EXPECT_EQ(gems.size_detail, "([torch.Size([64, 64])], {'dim': -1, 'descending': False})");
  EXPECT_DOUBLE_EQ(gems.median_ms, 0.955296);
}

TEST(FlagGemsLog, ChatterOutsideTablesIsIgnored) {
  // 3 mm + 2 softmax + 1 add + 1 sort lines, two rows each.
  EXPECT_EQ(fixture_rows().size(), 14u);
}

TEST(FlagGemsLog, ReadsTheReferenceOutputOfFlagGems) {
  std::string path =
      std::string(CALIBER_SHARED_DIR) + "/reference/flaggems/sample_benchmark_output.txt";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared reference at " << path;
  auto rows = parse_flaggems_log(read_file(path));
  EXPECT_EQ(rows.size(), 80u);  // 8 tables x 5 lines x (baseline, gems)
  const ResultRow& out = find(rows, "softmax_out", "gems");
  EXPECT_DOUBLE_EQ(out.median_ms, 291.730194);
  EXPECT_DOUBLE_EQ(*out.speedup, 0.917);
}

TEST(FlagGemsLog, SizeDetailShapesIgnoreScalarsAndKeywords) {
  EXPECT_EQ(shapes_in_size_detail("([torch.Size([2, 3]), 1, False], {'out': torch.Size([2])})"),
            (std::vector<std::vector<long>>{{2, 3}, {2}}));
  EXPECT_TRUE(shapes_in_size_detail("[64, 64]").empty());
}

}  // namespace
}  // namespace caliber
