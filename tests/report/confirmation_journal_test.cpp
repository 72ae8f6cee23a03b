#include "report/confirmation_journal.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/atomic_file.h"
#include "report/compare.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

RowComparison compared(const std::string& op, Verdict verdict, double a_ms, double b_ms) {
  RowComparison row;
  row.op = op;
  row.dtype = "float16";
  row.provider = "baseline";
  row.shape = "[torch.Size([64])]";
  row.pairing = Pairing::kCompared;
  row.stats.verdict = verdict;
  row.stats.band = 0.02;
  row.a = ResultRow{};
  row.a->median_ms = a_ms;
  row.b = ResultRow{};
  row.b->median_ms = b_ms;
  return row;
}

Confirmation rounds(std::vector<double> speedups, int asked) {
  Confirmation c;
  c.speedups = std::move(speedups);
  c.rounds_asked = asked;
  return c;
}

class ConfirmationJournal : public ::testing::Test {
 protected:
  testing::TempDir dir{"caliber-confirm-journal"};
  std::filesystem::path journal = dir / "confirmations.jsonl";
  Comparison comparison;

  void SetUp() override {
    comparison.rows = {compared("diag", Verdict::kSlow, 0.00182, 0.00217),
                       compared("isin", Verdict::kUnsure, 0.204, 0.339),
                       compared("mm", Verdict::kSame, 1.0, 1.0)};
  }
  void append(size_t row, const Confirmation& c) {
    append_line_durable(journal, confirmation_journal_line(comparison.rows[row], c));
  }
};

TEST_F(ConfirmationJournal, GivesBackEachRowsRoundsForTheSameComparison) {
  append(0, rounds({0.99, 1.01, 1.0}, 3));
  append(1, rounds({0.98, 0.97, 1.02}, 3));
  auto back = read_confirmation_journal(journal, comparison, 3);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at(0).speedups, (std::vector<double>{0.99, 1.01, 1.0}));
  EXPECT_EQ(back.at(1).speedups, (std::vector<double>{0.98, 0.97, 1.02}));
  EXPECT_EQ(back.at(1).rounds_asked, 3);
}

TEST_F(ConfirmationJournal, TakesNothingOfAnotherComparisonOrRoundCount) {
  append(0, rounds({0.99, 1.01, 1.0}, 3));
  // Other rounds asked: the line answers another command.
  EXPECT_TRUE(read_confirmation_journal(journal, comparison, 5).empty());
  // A screen of B measured again: its median moved, the rounds belong to the old one.
  Comparison other = comparison;
  other.rows[0].b->median_ms = 0.00190;
  EXPECT_TRUE(read_confirmation_journal(journal, other, 3).empty());
  // A row the screens now call SAME needs no rounds.
  other = comparison;
  other.rows[0].stats.verdict = Verdict::kSame;
  EXPECT_TRUE(read_confirmation_journal(journal, other, 3).empty());
  // No journal yet.
  EXPECT_TRUE(read_confirmation_journal(dir / "none.jsonl", comparison, 3).empty());
}

TEST_F(ConfirmationJournal, SkipsATornLastLineAndKeepsTheLatestLineOfARow) {
  append(0, rounds({0.90, 0.91, 0.92}, 3));
  append(0, rounds({0.99, 1.01, 1.0}, 3));
  {
    std::ofstream torn(journal, std::ios::app);
    torn << R"({"op": "isin", "dtype": "float16", "speedu)";
  }
  auto back = read_confirmation_journal(journal, comparison, 3);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back.at(0).speedups, (std::vector<double>{0.99, 1.01, 1.0}));
}

}  // namespace
}  // namespace caliber
