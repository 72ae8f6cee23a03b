#include "report/fidelity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace caliber {
namespace {

const char* kLog = R"(benchmark/test_select.py
Operator: index_select  Performance Test (dtype=torch.float16, mode=kernel,level=core)
Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup          Size Detail
-----------------------------------------------------------------------------------------------
SUCCESS               0.010000            0.020000               0.500          [torch.Size([64, 64]), 0, torch.Size([6])]
SUCCESS               0.010000            0.020000               0.500          [torch.Size([4096, 4096]), 0, torch.Size([409])]

.
Operator: index_select  Performance Test (dtype=torch.float16, mode=kernel,level=core)
Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup          Size Detail
-----------------------------------------------------------------------------------------------
SUCCESS               0.010000            0.020000               0.500          [torch.Size([64, 64]), 0, torch.Size([6])]

Operator: fused_thing  Performance Test (dtype=torch.bfloat16, mode=kernel,level=comprehensive)
Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup          Size Detail
-----------------------------------------------------------------------------------------------
SUCCESS               0.010000            0.020000               0.500          {'x': torch.Size([8])}
)";

TEST(Fidelity, EveryPrintedTableIsATableEvenWhenRepeated) {
  auto tables = flaggems_tables(kLog, "a.log");
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[0].op, "index_select");
  EXPECT_EQ(tables[0].dtype, "float16");
  EXPECT_EQ(tables[0].level, "core");
  EXPECT_THAT(tables[0].details,
              ::testing::ElementsAre("[torch.Size([64, 64]), 0, torch.Size([6])]",
                                     "[torch.Size([4096, 4096]), 0, torch.Size([409])]"));
  EXPECT_EQ(tables[1].details.size(), 1u);
  EXPECT_EQ(tables[2].level, "comprehensive");
  EXPECT_EQ(tables[2].details[0], "{'x': torch.Size([8])}");
}

TEST(Fidelity, SameDifferentUnmatchedAndExtraCases) {
  auto tables = flaggems_tables(kLog, "a.log");
  FidelityReport r = check_fidelity(tables, [](const FlaggemsTable& t) {
    CaliberCases c;
    if (t.op != "index_select") {
      c.why = "no corpus op answers to '" + t.op + "'";
      return c;
    }
    c.matched = true;
    c.op = "index_select";
    // caliber builds M/2 indices for the second shape, and one case FlagGems does not print
    c.details = {"[torch.Size([64, 64]), 0, torch.Size([6])]",
                 "[torch.Size([4096, 4096]), 0, torch.Size([2048])]",
                 "[torch.Size([8, 8]), 0, torch.Size([0])]"};
    return c;
  });
  EXPECT_EQ(r.same, 2u);  // the first case, in both tables
  EXPECT_EQ(r.different, 1u);
  EXPECT_EQ(r.unmatched, 1u);
  EXPECT_EQ(r.cases[1].status, FidelityStatus::kDifferent);
  EXPECT_EQ(r.cases[1].caliber, "[torch.Size([4096, 4096]), 0, torch.Size([2048])]");
  EXPECT_EQ(r.cases[3].why, "no corpus op answers to 'fused_thing'");
  EXPECT_EQ(r.extra.size(), 4u);  // 2 left over in the first table, 2 in the second
  EXPECT_EQ(fidelity_summary(r), "fidelity: 4 cases: 2 same, 1 different, 1 unmatched");
}

TEST(Fidelity, CaseOrderDoesNotMatterButMultiplicityDoes) {
  FlaggemsTable t{"x", "mm", "float16", "core", {"[a]", "[b]", "[b]"}};
  FidelityReport r = check_fidelity({t}, [](const FlaggemsTable&) {
    return CaliberCases{true, "mm", "", {"[b]", "[a]"}};
  });
  EXPECT_EQ(r.same, 2u);
  EXPECT_EQ(r.different, 1u);
  EXPECT_TRUE(r.extra.empty());
}

TEST(Fidelity, TheDeviceKeywordIsTheRunsNotTheInputs) {
  EXPECT_EQ(device_neutral("{'size': [64, 64], 'dtype': torch.float16, 'device': 'cuda'}"),
            "{'size': [64, 64], 'dtype': torch.float16, 'device': <device>}");
  EXPECT_EQ(device_neutral("[torch.Size([4]), 'cuda']"), "[torch.Size([4]), 'cuda']");
  FlaggemsTable t{"x",
                  "rand",
                  "float16",
                  "core",
                  {"{'size': [64, 64], 'dtype': torch.float16, 'device': 'cuda'}",
                   "{'size': [64, 64], 'dtype': torch.float32, 'device': 'cuda'}"}};
  FidelityReport r = check_fidelity({t}, [](const FlaggemsTable&) {
    return CaliberCases{true,
                        "rand",
                        "",
                        {"{'size': [64, 64], 'dtype': torch.float16, 'device': 'meta'}",
                         "{'size': [64, 64], 'dtype': torch.float16, 'device': 'meta'}"}};
  });
  EXPECT_EQ(r.same, 1u);  // the device aside, the dtype still counts
  EXPECT_EQ(r.different, 1u);
  EXPECT_EQ(r.cases[0].caliber, "{'size': [64, 64], 'dtype': torch.float16, 'device': 'meta'}");
}

TEST(Fidelity, ReadsFlagGemsOwnPrintedOutput) {
  std::filesystem::path path =
      std::filesystem::path(CALIBER_SHARED_DIR) / "reference/flaggems/sample_benchmark_output.txt";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto tables = flaggems_tables(text.str(), path.string());
  ASSERT_EQ(tables.size(), 8u);
  EXPECT_EQ(tables[0].op, "mm");
  EXPECT_EQ(tables[0].details.size(), 5u);
  EXPECT_EQ(tables[2].details[0],
            "([torch.Size([1048576]), torch.Size([1048576]), 0, torch.float16], "
            "{'grad_input': torch.Size([1048576])})");
}

}  // namespace
}  // namespace caliber
