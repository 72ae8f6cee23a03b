#include "batch/batch_plan.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

EnvLookup no_env() {
  return [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
}

TEST(BatchPlan, TimeoutScalesWithShapesAndDtypes) {
  BatchOptions o;
  o.timeout_base_s = 60;
  o.timeout_per_case_s = 5;
  EXPECT_DOUBLE_EQ(op_timeout_s(o, 5, 3), 60 + 5 * 5 * 3);
  EXPECT_DOUBLE_EQ(op_timeout_s(o, 0, 1), 60 + 5 * kUnknownShapeCount);
  o.timeout_s = 7;
  EXPECT_DOUBLE_EQ(op_timeout_s(o, 500, 3), 7);
}

TEST(BatchPlan, ChildFlagsPassKnobsThroughAndPinDeviceZero) {
  BatchOptions o;
  o.knob_flags = {{"timer", "direct"},
                  {"level", "comprehensive"},
                  {"out_dir", "/x"},
                  {"backend", "host"},
                  {"replay_from", "/"}};
  o.devices = "0,1";
  BatchPlan plan = plan_batch(o, no_env());
  EXPECT_EQ(plan.child_flags.at("timer"), "direct");
  EXPECT_EQ(plan.child_flags.at("level"), "comprehensive");
  EXPECT_EQ(plan.child_flags.at("backend"), "cpu");
  EXPECT_EQ(plan.child_flags.at("device"), "0");
  EXPECT_FALSE(plan.child_flags.count("out_dir"));
  EXPECT_FALSE(plan.child_flags.count("replay_from"));
  EXPECT_EQ(plan.devices, (std::vector<int>{0, 1}));
}

TEST(BatchPlan, IsolationDefaultsToAWorkerPerLane) {
  BatchOptions o;
  o.knob_flags = {{"backend", "cpu"}};
  EXPECT_EQ(plan_batch(o, no_env()).isolation, Isolation::kWorker);
  o.knob_flags["candidate"] = "library:/x/libfake.so";
  EXPECT_EQ(plan_batch(o, no_env()).isolation, Isolation::kWorker);
  o.isolation = Isolation::kOp;  // as given wins
  EXPECT_EQ(plan_batch(o, no_env()).isolation, Isolation::kOp);
}

TEST(BatchPlan, DefaultOutDirIsTheSameForTheSameCommand) {
  BatchOptions o;
  o.knob_flags = {{"backend", "cpu"}};
  EXPECT_EQ(plan_batch(o, no_env()).out_dir, "batch-cpu-core");
}

TEST(BatchPlan, RejectsABadDeviceList) {
  BatchOptions o;
  o.knob_flags = {{"backend", "cpu"}};
  for (const char* bad : {"a", "0,0", "-1", ","}) {
    o.devices = bad;
    EXPECT_THROW(plan_batch(o, no_env()), Error) << bad;
  }
}

TEST(BatchPlan, RejectsAMissingReplayDirectory) {
  BatchOptions o;
  o.knob_flags = {{"backend", "cpu"}, {"replay_from", "/no/such/batch"}};
  EXPECT_THROW(plan_batch(o, no_env()), Error);
}

}  // namespace
}  // namespace caliber
