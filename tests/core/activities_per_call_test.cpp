#include "core/activities_per_call.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/result_row.h"

namespace caliber {
namespace {

ActivitiesPerCall sort_like() {
  ActivitiesPerCall a;
  a.kernels = 7;
  a.memsets = 1;
  a.kernel_us = 88.5;
  a.memset_us = 1.25;
  a.calls = 120;
  return a;
}

TEST(ActivitiesPerCall, TextNamesEachKindsCount) {
  EXPECT_EQ(to_text(sort_like()), "kernels=7 memsets=1 memcpys=0");
  ActivitiesPerCall varying = sort_like();
  varying.counts_vary = true;
  EXPECT_EQ(to_text(varying), "kernels=7 memsets=1 memcpys=0 (varies)");
}

TEST(ActivitiesPerCall, JsonHasOneNumericFieldPerKindAndRoundTrips) {
  nlohmann::json j = to_json(sort_like());
  EXPECT_EQ(j.at("kernels"), 7);
  EXPECT_EQ(j.at("memsets"), 1);
  EXPECT_EQ(j.at("memcpys"), 0);
  EXPECT_DOUBLE_EQ(j.at("kernel_us").get<double>(), 88.5);
  EXPECT_EQ(activities_from_json(j), sort_like());
}

TEST(ResultRowActivities, AKernelRowCarriesActivitiesAndKernelOnlyTimeInItsJsonLine) {
  ResultRow row;
  row.op = "sort";
  row.timer_used = "kernel";
  row.latency_ms = 0.0898;
  row.activities_per_call = sort_like();
  row.kernel_only_us = 88.5;
  nlohmann::json j = nlohmann::json::parse(to_jsonl_line(row));
  EXPECT_EQ(j.at("activities_per_call").at("kernels"), 7);
  EXPECT_DOUBLE_EQ(j.at("kernel_only_us").get<double>(), 88.5);
  ResultRow back = result_row_from_json(j);
  ASSERT_TRUE(back.activities_per_call.has_value());
  EXPECT_EQ(*back.activities_per_call, sort_like());
  ASSERT_TRUE(back.kernel_only_us.has_value());
  EXPECT_DOUBLE_EQ(*back.kernel_only_us, 88.5);
}

TEST(ResultRowActivities, OtherTimersWriteNullAndOldRowsReadWithout) {
  ResultRow row;
  row.timer_used = "graph";
  nlohmann::json j = nlohmann::json::parse(to_jsonl_line(row));
  EXPECT_TRUE(j.at("activities_per_call").is_null());
  EXPECT_TRUE(j.at("kernel_only_us").is_null());
  j.erase("activities_per_call");
  j.erase("kernel_only_us");
  ResultRow back = result_row_from_json(j);
  EXPECT_FALSE(back.activities_per_call.has_value());
  EXPECT_FALSE(back.kernel_only_us.has_value());
}

}  // namespace
}  // namespace caliber
