#include "report/compare.h"

#include <gtest/gtest.h>

#include "core/csv.h"
#include "report/compare_view.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::synthetic_samples;
using testing::TempDir;
using testing::test_identity;
using testing::test_row;
using testing::write_run;

const RowComparison& find(const Comparison& c, const std::string& op, int occurrence = 0) {
  for (const auto& r : c.rows) {
    if (r.op == op && r.occurrence == occurrence) return r;
  }
  throw std::runtime_error("no row " + op);
}

class CompareRuns : public ::testing::Test {
 protected:
  TempDir dir{"caliber-compare"};

  Comparison run(const std::vector<ResultRow>& a, const std::vector<ResultRow>& b,
                 CompareOptions options = {}) {
    write_run(dir / "a", test_identity(), a);
    write_run(dir / "b", test_identity(), b);
    return compare_runs(load_run_collection((dir / "a").string()),
                        load_run_collection((dir / "b").string()), options);
  }
};

TEST_F(CompareRuns, PairsRowsByKeyAndJudgesEach) {
  auto c = run({test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 1)),
                test_row("add", "pointwise", synthetic_samples(1.0, 0.01, 100, 2)),
                test_row("sum", "reduction", synthetic_samples(1.0, 0.01, 100, 3))},
               {test_row("mm", "blas", synthetic_samples(0.8, 0.01, 100, 4)),
                test_row("add", "pointwise", synthetic_samples(1.2, 0.01, 100, 5)),
                test_row("sum", "reduction", synthetic_samples(1.0, 0.01, 100, 6))});
  EXPECT_EQ(find(c, "mm").verdict(), "FAST");
  EXPECT_EQ(find(c, "add").verdict(), "SLOW");
  EXPECT_EQ(find(c, "sum").verdict(), "SAME");
  // Sorted by effect: the slowdown first, the speedup last.
  EXPECT_EQ(c.rows.front().op, "add");
  EXPECT_EQ(c.rows.back().op, "mm");
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(c.verdict_counts.at("SLOW"), 1u);
}

TEST_F(CompareRuns, CountsTheJudgedRowsPerTimerUsed) {
  auto direct_a = test_row("sort", "sort", synthetic_samples(1.0, 0.01, 100, 3));
  auto direct_b = test_row("sort", "sort", synthetic_samples(1.3, 0.01, 100, 4));
  direct_a.timer_used = direct_b.timer_used = "direct";
  auto c = run({test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 1)), direct_a,
                test_row("sum", "reduction", synthetic_samples(1.0, 0.01, 100, 5))},
               {test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 2)), direct_b});
  EXPECT_EQ(c.verdicts_by_timer.at("graph").at("SAME"), 1u);
  EXPECT_EQ(c.verdicts_by_timer.at("direct").at("SLOW"), 1u);
  EXPECT_EQ(c.verdicts_by_timer.at("graph").count("ONLY_A"), 0u);  // unpaired rows are not judged
  EXPECT_NE(compare_text(c, false).find("by timer used: direct 1 rows, 0.0% SAME; graph 1 rows, "
                                        "100.0% SAME"),
            std::string::npos)
      << compare_text(c, false);
}

TEST_F(CompareRuns, RepeatedShapesPairInOrder) {
  auto a1 = test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 1));
  auto a2 = test_row("mm", "blas", synthetic_samples(2.0, 0.01, 100, 2));
  auto b1 = test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 3));
  auto b2 = test_row("mm", "blas", synthetic_samples(2.0, 0.01, 100, 4));
  auto c = run({a1, a2}, {b1, b2});
  EXPECT_EQ(find(c, "mm", 0).verdict(), "SAME");
  EXPECT_EQ(find(c, "mm", 1).verdict(), "SAME");
}

TEST_F(CompareRuns, UnpairedAndFailedRowsAreNamedNotJudged) {
  auto broken = test_row("add", "pointwise", {});
  broken.status = RowStatus::kFailed;
  broken.error = "CUDA error: illegal memory access";
  auto c = run({test_row("add", "pointwise", synthetic_samples(1.0, 0.01, 100, 1)),
                test_row("sum", "reduction", synthetic_samples(1.0, 0.01, 100, 2))},
               {broken, test_row("max", "reduction", synthetic_samples(1.0, 0.01, 100, 3))});
  EXPECT_EQ(find(c, "add").verdict(), "FAILED");
  EXPECT_TRUE(find(c, "add").regressed());
  EXPECT_EQ(find(c, "sum").verdict(), "ONLY_A");
  EXPECT_EQ(find(c, "max").verdict(), "ONLY_B");
  EXPECT_TRUE(c.regressed());
}

TEST_F(CompareRuns, RowsTheCandidateDoesNotCoverKeepTheirStatusAndDoNotRegress) {
  auto uncovered = test_row("sort", "sort", {}, "python:flag_gems");
  uncovered.status = RowStatus::kNotCovered;
  auto c = run({uncovered}, {uncovered});
  EXPECT_EQ(find(c, "sort").verdict(), "NOT_COVERED");
  EXPECT_FALSE(c.regressed());
}

TEST_F(CompareRuns, ARowWhoseTimerFellBackIsUnsure) {
  auto fell_back = test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 2));
  fell_back.timer_used = "direct";
  auto c = run({test_row("mm", "blas", synthetic_samples(1.0, 0.01, 100, 1))}, {fell_back});
  EXPECT_EQ(find(c, "mm").verdict(), "UNSURE");
  EXPECT_NE(find(c, "mm").stats.reason.find("timer used differs"), std::string::npos);
}

TEST_F(CompareRuns, RowsWithoutDeviceWorkOnBothSidesAreSameAndLeaveTheMeansAlone) {
  // What an empty op's graph replay reads per call: its start over the calls, 25% apart.
  auto empty = [](double center, uint64_t seed) {
    auto row = test_row("empty", "construct", synthetic_samples(center, 0.001, 50, seed));
    row.markers.push_back(std::string(kNoDeviceWorkMarker));
    return row;
  };
  auto c =
      run({empty(2.6e-6, 1), test_row("add", "pointwise", synthetic_samples(1.0, 0.001, 50, 2))},
          {empty(3.5e-6, 3), test_row("add", "pointwise", synthetic_samples(1.0, 0.001, 50, 4))});
  EXPECT_EQ(find(c, "empty").verdict(), "SAME");
  EXPECT_EQ(find(c, "empty").stats.reason, "no device work on either side");
  for (const auto& g : c.geomeans) EXPECT_NE(g.family, "construct");
  // B's call now launches work: judged on its samples.
  auto launched = test_row("empty", "construct", synthetic_samples(3.5e-6, 0.001, 50, 5));
  c = run({empty(2.6e-6, 1)}, {launched});
  EXPECT_EQ(find(c, "empty").verdict(), "SLOW");
}

TEST_F(CompareRuns, GeometricMeanPerFamilyAndOverall) {
  auto c = run({test_row("mm", "blas", synthetic_samples(1.0, 0.001, 50, 1)),
                test_row("bmm", "blas", synthetic_samples(1.0, 0.001, 50, 2)),
                test_row("add", "pointwise", synthetic_samples(1.0, 0.001, 50, 3))},
               {test_row("mm", "blas", synthetic_samples(0.5, 0.001, 50, 4)),
                test_row("bmm", "blas", synthetic_samples(2.0, 0.001, 50, 5)),
                test_row("add", "pointwise", synthetic_samples(0.25, 0.001, 50, 6))});
  std::map<std::string, double> means;
  for (const auto& g : c.geomeans) means[g.family] = g.speedup.value();
  EXPECT_NEAR(means.at("blas"), 1.0, 0.01);  // 2x and 0.5x cancel
  EXPECT_NEAR(means.at("pointwise"), 4.0, 0.02);
  EXPECT_NEAR(means.at("(all)"), std::cbrt(4.0), 0.02);
  EXPECT_EQ(c.geomeans.back().family, "(all)");
}

TEST_F(CompareRuns, CsvCarriesVerdictsAndAllowedMismatch) {
  write_run(dir / "a", test_identity(), {test_row("mm", "blas", synthetic_samples(1, .01, 50, 1))});
  RunIdentity other = test_identity();
  other.timer = "direct";
  write_run(dir / "b", other, {test_row("mm", "blas", synthetic_samples(1, .01, 50, 2))});
  CompareOptions options;
  options.allow_mismatch = {"timer"};
  auto c = compare_runs(load_run_collection((dir / "a").string()),
                        load_run_collection((dir / "b").string()), options);
  CsvTable csv(parse_csv(compare_csv(c)));
  ASSERT_EQ(csv.size(), 1u);
  EXPECT_EQ(csv.at(0, "verdict"), "SAME");
  EXPECT_EQ(csv.at(0, "allowed_mismatch"), "timer");
  EXPECT_EQ(csv.at(0, "a_samples"), "50");
  EXPECT_NE(compare_json(c).find("\"field\": \"timer\""), std::string::npos);
  EXPECT_NE(compare_text(c, false).find("allowed by --allow-mismatch: timer"), std::string::npos);
}

}  // namespace
}  // namespace caliber
