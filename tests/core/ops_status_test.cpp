#include "core/ops_status.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace caliber {
namespace {

OpStatus sample() {
  OpStatus s;
  s.op = "softmax";
  s.state = OpState::kPartial;
  s.attempts = 2;
  s.dtypes_passed = {"float32", "bfloat16"};
  s.dtypes_failed = {"float16"};
  s.backend = "cuda";
  s.device = 3;
  s.timer_used = "direct+graph";
  s.wall_s = 12.5;
  s.exit_code = 1;
  s.error = "RuntimeError: \"half\", not supported,\nsecond line";
  return s;
}

TEST(OpStatus, CsvHasTheDocumentedColumns) {
  std::string csv = status_csv({});
  EXPECT_EQ(csv,
            "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,wall_s,exit,"
            "signal,error\n");
}

TEST(OpStatus, CsvRoundTripsQuotesCommasAndNewlines) {
  auto rows = parse_status_csv(status_csv({sample()}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].op, "softmax");
  EXPECT_EQ(rows[0].state, OpState::kPartial);
  EXPECT_EQ(rows[0].dtypes_passed, sample().dtypes_passed);
  EXPECT_EQ(rows[0].dtypes_failed, sample().dtypes_failed);
  EXPECT_EQ(rows[0].device, 3);
  EXPECT_EQ(rows[0].exit_code, 1);
  EXPECT_EQ(rows[0].error, "RuntimeError: \"half\", not supported, second line");
}

TEST(OpStatus, CompleteMarkerJsonRoundTrips) {
  OpStatus back = op_status_from_json(to_json(sample()));
  EXPECT_EQ(back.state, OpState::kPartial);
  EXPECT_EQ(back.timer_used, "direct+graph");
  EXPECT_EQ(back.exit_code, 1);
  EXPECT_EQ(back.error, sample().error);
}

TEST(OpStatus, InterruptedAndPendingAreNotFinal) {
  EXPECT_FALSE(is_final(OpState::kInterrupted));
  EXPECT_FALSE(is_final(OpState::kPending));
  EXPECT_TRUE(is_final(OpState::kHung));
  EXPECT_TRUE(is_failure(OpState::kPartial));
  EXPECT_FALSE(is_failure(OpState::kDismissed));
}

TEST(OpStatus, ASlurmMergesTaskStatesReadAsTheTasksFateNotTheOps) {
  auto rows = parse_status_csv(std::string(kStatusCsvHeader) +
                               "\nadd,task_cancelled,0,,,cpu,,,0,,,\nmm,not_run,0,,,cpu,,,0,,,\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].state, OpState::kTaskEnded);
  EXPECT_EQ(rows[1].state, OpState::kNotRun);
  for (const auto& r : rows) {
    EXPECT_FALSE(is_final(r.state));    // a resubmitted sweep redoes them
    EXPECT_FALSE(is_failure(r.state));  // and they are not counted as op failures
  }
  EXPECT_EQ(op_state_from_string("task_"), std::nullopt);
  EXPECT_THROW(parse_status_csv("op,status\nadd,exploded\n"), Error);
}

}  // namespace
}  // namespace caliber
