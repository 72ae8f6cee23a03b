#include "report/drift_calibration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "core/error.h"
#include "core/stats.h"
#include "report/compare.h"
#include "report/compare_view.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::synthetic_samples;
using testing::TempDir;
using testing::test_identity;
using testing::test_row;
using testing::write_run;

// A synthetic corpus with known drift: each row has a latency and a run-to-run drift (the sigma
// of its log latency between two screens), and each screen draws every row's drift afresh and
// then 30 samples with 1% noise around it. Four kinds of rows, as a device screen has them:
// steady graph rows of 20 us (0.3% drift), launch-bound graph rows of 3 us (1.5%), direct rows of
// 60 us (4%) and GEMM-like graph rows of 300 us that drift 6% (the power cap). Each kind drifts
// alike: a class band is a quantile, and a few rows that drift far more than their class (as on
// the H200, docs/results.md) widen it for the whole class.
struct SyntheticRow {
  std::string op;
  std::string timer;
  double ms;
  double drift;
};

std::vector<SyntheticRow> synthetic_corpus(int n) {
  std::vector<SyntheticRow> rows;
  for (int i = 0; i < n; ++i) {
    SyntheticRow r{"op" + std::to_string(i), "graph", 0.020, 0.003};
    if (i % 4 == 1) r = {r.op, "graph", 0.003, 0.015};
    if (i % 4 == 2) r = {r.op, "direct", 0.060, 0.04};
    if (i % 4 == 3) r = {r.op, "graph", 0.300, 0.06};
    rows.push_back(r);
  }
  return rows;
}

// One screen: every row slower by `slowdown` (0: the same build).
void write_screen(const std::filesystem::path& dir, const std::vector<SyntheticRow>& corpus,
                  uint64_t seed, double slowdown = 0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::vector<ResultRow> rows;
  uint64_t sample_seed = seed * 100000;
  for (const auto& s : corpus) {
    double center = s.ms * std::exp(s.drift * normal(rng)) * (1 + slowdown);
    ResultRow row = test_row(s.op, "synthetic", synthetic_samples(center, 0.01, 30, sample_seed++));
    row.timer_used = s.timer;
    row.median_ms = row.latency_ms = median(row.samples_ms);
    rows.push_back(row);
  }
  write_run(dir, test_identity(), rows);
}

size_t count(const Comparison& c, const std::string& verdict) {
  auto it = c.verdict_counts.find(verdict);
  return it == c.verdict_counts.end() ? 0 : it->second;
}

class DriftCalibrationTest : public ::testing::Test {
 protected:
  static constexpr int kRows = 600;
  TempDir dir{"caliber-drift"};
  std::vector<SyntheticRow> corpus = synthetic_corpus(kRows);

  RunCollection screen(const std::string& name, uint64_t seed, double slowdown = 0) {
    write_screen(dir / name, corpus, seed, slowdown);
    return load_run_collection((dir / name).string());
  }

  DriftCalibration calibration() {
    return calibrate_drift({screen("c1", 1), screen("c2", 2)}, CalibrationOptions{});
  }

  CompareOptions with(const DriftCalibration& cal) {
    CompareOptions options;
    options.calibration = cal;
    options.calibration_source = "test";
    return options;
  }

  // Rows of one kind judged SLOW, as a share of that kind's rows.
  double slow_share(const Comparison& c, const std::string& timer, double ms) {
    size_t slow = 0;
    size_t rows = 0;
    for (const auto& r : c.rows) {
      int i = std::stoi(r.op.substr(2));
      if (corpus[i].timer != timer || corpus[i].ms != ms) continue;
      ++rows;
      if (r.verdict() == "SLOW") ++slow;
    }
    return static_cast<double>(slow) / static_cast<double>(rows);
  }
};

TEST_F(DriftCalibrationTest, UncalibratedVerdictsBetweenTwoScreensOfOneBuildAreOftenFalse) {
  CompareOptions none;
  none.calibration_choice = "none";
  Comparison c = compare_runs(screen("t1", 3), screen("t2", 4), none);
  double false_rate = static_cast<double>(count(c, "FAST") + count(c, "SLOW")) / kRows;
  EXPECT_GT(false_rate, 0.10) << "the synthetic drift should fool the within-run interval";
  EXPECT_NE(compare_text(c, false).find("not calibrated"), std::string::npos);
}

TEST_F(DriftCalibrationTest, CalibratedVerdictsOnHeldOutScreensStayUnderHalfAPercentFalse) {
  DriftCalibration cal = calibration();
  EXPECT_EQ(cal.rows, static_cast<size_t>(kRows));
  EXPECT_LE(cal.in_sample_rate, 0.01);
  EXPECT_GT(cal.uncalibrated_rate, 0.10);
  // Screens the calibration never saw.
  Comparison c = compare_runs(screen("t1", 3), screen("t2", 4), with(cal));
  size_t judged_false = count(c, "FAST") + count(c, "SLOW");
  EXPECT_LE(static_cast<double>(judged_false), 0.005 * kRows) << judged_false << " false";
  EXPECT_LE(static_cast<double>(count(c, "UNSURE")), 0.05 * kRows);
  std::string text = compare_text(c, false);
  EXPECT_NE(text.find("calibrated for an A/A false-verdict rate of 0.50%"), std::string::npos);
}

TEST_F(DriftCalibrationTest, ClassBandsFollowTheDriftOfTheirRows) {
  DriftCalibration cal = calibration();
  auto band = [&](const std::string& timer, int decade) {
    for (const auto& c : cal.classes) {
      if (c.timer == timer && c.decade == decade) return c.band;
    }
    return -1.0;
  };
  // 20 us graph rows drift least, then 3 us graph rows; 60 us direct and 300 us GEMM-like most.
  EXPECT_GT(band("graph", 1), 0);
  EXPECT_LT(band("graph", 1), band("graph", 0));
  EXPECT_LT(band("graph", 0), band("direct", 1));
  EXPECT_LT(band("graph", 0), band("graph", 2));
}

// A 2% regression is within three sigmas of the steady rows' A/A spread here, so it is found on
// some of them only (issue 19 asks for half; not reached, docs/results.md).
TEST_F(DriftCalibrationTest, FindsAFivePercentRegressionOnSteadyRowsAndSomeTwoPercentOnes) {
  DriftCalibration cal = calibration();
  RunCollection base = screen("t1", 3);
  CompareOptions options = with(cal);
  options.verdict.min_effect = 0.01;  // below the 2% to be found
  Comparison five = compare_runs(base, screen("p5", 5, 0.05), options);
  EXPECT_GE(slow_share(five, "graph", 0.020), 0.95);
  Comparison two = compare_runs(base, screen("p2", 6, 0.02), options);
  EXPECT_GE(slow_share(two, "graph", 0.020), 0.10);
  // Rows that drift more than 2% between screens: their band keeps them from a verdict.
  EXPECT_LT(slow_share(two, "graph", 0.300), 0.05);
  EXPECT_LT(slow_share(two, "graph", 0.003), slow_share(two, "graph", 0.020));
}

TEST_F(DriftCalibrationTest, RoundTripsThroughJsonAndWidensRowsThatDrifted) {
  DriftCalibration cal = calibration();
  DriftCalibration back = drift_calibration_from_json(to_json(cal));
  EXPECT_EQ(back.classes.size(), cal.classes.size());
  EXPECT_EQ(back.row_needs.size(), cal.row_needs.size());
  EXPECT_DOUBLE_EQ(back.in_sample_rate, cal.in_sample_rate);
  ASSERT_FALSE(cal.row_needs.empty());
  const auto& [key, need] =
      *std::max_element(cal.row_needs.begin(), cal.row_needs.end(),
                        [](const auto& x, const auto& y) { return x.second < y.second; });
  EXPECT_DOUBLE_EQ(
      cal.band_for(key, "graph", 0.020),
      std::max(cal.band_for("unseen", "graph", 0.020), DriftCalibration::kRowSafety * need));
}

TEST_F(DriftCalibrationTest, RefusesOneScreenAndACalibrationOfAnotherDevice) {
  EXPECT_THROW(calibrate_drift({screen("c1", 1)}, CalibrationOptions{}), Error);
  DriftCalibration cal = calibration();
  cal.device_model = "Another GPU";
  write_file_atomic(dir / "other.json", to_json(cal).dump());
  CompareOptions options;
  options.calibration_choice = (dir / "other.json").string();
  try {
    compare_runs(screen("t1", 3), screen("t2", 4), options);
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("--calibration"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("Another GPU"), std::string::npos);
  }
}

}  // namespace
}  // namespace caliber
