// The order a lane runs its ops in: longest first by expected wall times, or as selected.
#include <gtest/gtest.h>

#include "batch_harness.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

using testing::BatchHarness;

// The ops the fake child ran, in the order it was asked to.
std::vector<std::string> run_order(const BatchHarness& h) {
  std::vector<std::string> ops;
  for (const std::string& call : h.calls("run op=")) ops.push_back(BatchHarness::field(call, "op"));
  return ops;
}

void write_costs(const BatchHarness& h) {
  write_file_atomic(h.dir() / "costs.csv",
                    "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,"
                    "wall_s,exit,signal,error\n"
                    "ok_a,ok,1,float32,,cpu,0,host,2.0,0,,\n"
                    "ok_b,ok,1,float32,,cpu,0,host,1.0,0,,\n"
                    "ok_c,ok,1,float32,,cpu,0,host,3.0,0,,\n");
}

TEST(BatchOrder, LongestFirstRunsTheOpsWithTheLongestEarlierWallFirst) {
  BatchHarness h("order-longest");
  write_costs(h);
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b,ok_c", "--devices", "0", "--costs-from",
                   (h.dir() / "costs.csv").string()}),
            0)
      << h.output();
  EXPECT_EQ(run_order(h), (std::vector<std::string>{"ok_c", "ok_a", "ok_b"}));
  EXPECT_NE(BatchHarness::read_or_empty(h.out() / "batch.log").find("order: longest first"),
            std::string::npos);
}

TEST(BatchOrder, SelectionKeepsTheOrderTheOpsWereSelectedIn) {
  BatchHarness h("order-selection");
  write_costs(h);
  EXPECT_EQ(h.run({"--ops", "ok_a,ok_b,ok_c", "--devices", "0", "--order", "selection",
                   "--costs-from", (h.dir() / "costs.csv").string()}),
            0)
      << h.output();
  EXPECT_EQ(run_order(h), (std::vector<std::string>{"ok_a", "ok_b", "ok_c"}));
}

TEST(BatchOrder, BadOrderOrUnreadableCostsExitTwoBeforeAnythingRuns) {
  BatchHarness h("order-bad");
  EXPECT_EQ(h.run({"--ops", "ok_a", "--order", "fastest"}), 2);
  EXPECT_NE(h.output().find("--order: 'fastest' is not an order"), std::string::npos) << h.output();
  EXPECT_EQ(h.run({"--ops", "ok_a", "--costs-from", (h.dir() / "missing.csv").string()}), 2);
  EXPECT_NE(h.output().find("--costs-from:"), std::string::npos) << h.output();
  EXPECT_TRUE(h.calls("run op=").empty());
  EXPECT_FALSE(std::filesystem::exists(h.out() / "ops_status.csv"));
}

}  // namespace
}  // namespace caliber
