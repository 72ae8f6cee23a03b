#include "report/flaggems_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "report/terminal_table.h"

namespace caliber {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> reference_lines() {
  std::ifstream in(std::string(CALIBER_SHARED_DIR) +
                   "/reference/flaggems/sample_benchmark_output.txt");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(FlagGemsTable, MatchesFlagGemsPrintedLayoutWithTflops) {
  auto ref = reference_lines();
  ASSERT_GE(ref.size(), 4u) << "shared reference missing";
  TableHeading heading{"mm", "float16", "kernel", "core"};
  TableLine line{.status = RowStatus::kSuccess,
                 .torch_ms = 0.009616,
                 .gems_ms = 0.200320,
                 .speedup = 0.048,
                 .tflops = 0.565,
                 .size_detail = "[torch.Size([384, 384]), torch.Size([384, 384])]"};
  auto out = split_lines(flaggems_table(heading, {line}, true));
  ASSERT_EQ(out.size(), 5u);  // blank, title, columns, rule, row
  EXPECT_EQ(out[1], ref[0]);
  EXPECT_EQ(out[2], ref[1]);
  EXPECT_EQ(out[3], ref[2]);
  EXPECT_EQ(out[4], ref[3]);
}

TEST(FlagGemsTable, MatchesLayoutWithoutTflops) {
  auto ref = reference_lines();
  ASSERT_GE(ref.size(), 12u);
  TableHeading heading{"softmax_backward", "float16", "kernel", "core"};
  TableLine line{.status = RowStatus::kSuccess,
                 .torch_ms = 0.131744,
                 .gems_ms = 0.656672,
                 .speedup = 0.201,
                 .size_detail = "[torch.Size([1048576])]"};
  auto out = split_lines(flaggems_table(heading, {line}, false));
  EXPECT_EQ(out[1], ref[9]);
  EXPECT_EQ(out[2], ref[10]);
  EXPECT_EQ(out[3], ref[11]);
  EXPECT_EQ(out[4], ref[12]);
}

TEST(FlagGemsTable, BaselineOnlyRowsSayNotApplicableForCandidateColumns) {
  ResultRow row;
  row.op = "add";
  row.latency_ms = 1.5;
  row.size_detail = "[torch.Size([1024])]";
  auto lines = table_lines({row});
  ASSERT_EQ(lines.size(), 1u);
  std::string text = flaggems_table({"add", "float32", "graph", "core"}, lines, false);
  EXPECT_THAT(text, HasSubstr("SUCCESS               1.500000                 N/A"));
}

TEST(FlagGemsTable, FailedRowKeepsItsErrorAndOtherRowsStay) {
  ResultRow ok;
  ok.size_detail = "[torch.Size([8])]";
  ok.latency_ms = 0.1;
  ResultRow bad;
  bad.size_detail = "[torch.Size([9])]";
  bad.status = RowStatus::kFailed;
  bad.error = "boom";
  auto lines = table_lines({ok, bad});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].status, RowStatus::kSuccess);
  EXPECT_EQ(lines[1].status, RowStatus::kFailed);
  EXPECT_EQ(lines[1].error, "boom");
}

TEST(TerminalTable, FoldsArgumentsIdenticalInEveryRowIntoALegend) {
  std::vector<TableLine> lines = {
      {.status = RowStatus::kSuccess, .torch_ms = 0.1, .size_detail = "[torch.Size([64, 64]), 1]"},
      {.status = RowStatus::kSuccess,
       .torch_ms = 0.2,
       .size_detail = "[torch.Size([4096, 4096]), 1]"}};
  std::string text = terminal_table({"softmax", "float16", "graph", "core"}, lines, {}, {});
  EXPECT_THAT(text, HasSubstr("same in every row: arg1=1"));
  EXPECT_THAT(text, HasSubstr("torch.Size([4096, 4096])\n"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b[")));
}

TEST(TerminalTable, ColoursOnlyWhenAsked) {
  std::vector<TableLine> lines = {
      {.status = RowStatus::kFailed, .size_detail = "[1]", .error = "x"}};
  std::string text = terminal_table({"op", "float16", "graph", "core"}, lines,
                                    {"fallback[phase=capture]"}, {.color = true});
  EXPECT_THAT(text, HasSubstr("\x1b[31mFAILED"));
  EXPECT_THAT(text, HasSubstr("\x1b[33mfallback[phase=capture]"));
}

TEST(TerminalTable, SplitsNestedSizeDetail) {
  EXPECT_EQ(split_size_detail("([torch.Size([4]), 0, False], {'out': torch.Size([4])})"),
            (std::vector<std::string>{"[torch.Size([4]), 0, False]", "{'out': torch.Size([4])}"}));
}

}  // namespace
}  // namespace caliber

namespace caliber {
namespace {

TEST(TerminalTable, ShowsTheBaselinePeakMemoryBesideTime) {
  ResultRow row;
  row.latency_ms = 0.5;
  row.peak_memory_bytes = 64 * 1024 * 1024;
  row.size_detail = "[torch.Size([4096, 4096])]";
  std::string text =
      terminal_table({"add", "float16", "graph", "core"}, table_lines({row}), {}, {});
  EXPECT_THAT(text, HasSubstr("Peak MiB"));
  EXPECT_THAT(text, HasSubstr("64.0"));
  // run.log keeps FlagGems' columns only.
  EXPECT_THAT(flaggems_table({"add", "float16", "graph", "core"}, table_lines({row}), false),
              Not(HasSubstr("Peak")));
}

}  // namespace
}  // namespace caliber
