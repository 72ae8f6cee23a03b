#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/shell_command.h"

namespace {

namespace fs = std::filesystem;
using Result = caliber::testing::ShellResult;
using ::testing::HasSubstr;

Result run(const std::string& args) {
  return caliber::testing::run_shell(std::string(CALIBER_BINARY) + " " + args);
}

std::string last_line(const std::string& output) {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.substr(text.rfind('\n') + 1);
}

class OpsParity : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test: ctest runs the tests of this fixture in parallel.
    dir_ = fs::temp_directory_path() /
           (std::string("caliber_ops_parity_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "benchmark");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OpsParity, InventoryCoversByNameOrAliasDismissesAndListsTheMissing) {
  // FlagGems times Tensor.expand under `expand_` too: an alias of caliber's expand.
  std::ofstream(dir_ / "benchmark" / "test_expand.py")
      << "@pytest.mark.expand\ndef test_expand(): pass\n\n@pytest.mark.expand_\n"
         "@pytest.mark.skipif(True, reason='x')\ndef test_expand_(): pass\n";
  std::ofstream(dir_ / "benchmark" / "test_fused.py")
      << "@pytest.mark.fused_thing\n@pytest.mark.no_aten_op\ndef test_f(): pass\n";
  std::ofstream(dir_ / "dismiss.yaml")
      << "- {op: no_aten_op, reason: 'no ATen counterpart', verified_on: cpu/2026-11-30}\n";
  std::string args = "ops --inventory " + (dir_ / "benchmark").string() + " --dismiss-file " +
                     (dir_ / "dismiss.yaml").string();
  Result r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("covered (as expand)"));
  EXPECT_THAT(r.output, HasSubstr("dismissed (no ATen counterpart)"));
  EXPECT_EQ(last_line(r.output), "inventory: 4 marks: 2 covered, 1 dismissed, 1 missing");

  r = run(args + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["marks"], 4);
  EXPECT_EQ(j["counts"]["missing"], 1);
  bool saw_fused = false;
  for (const auto& row : j["rows"]) {
    if (row["mark"] == "fused_thing") {
      saw_fused = true;
      EXPECT_EQ(row["status"], "missing");
      EXPECT_EQ(row["files"][0], "test_fused.py");
    }
  }
  EXPECT_TRUE(saw_fused);
}

TEST_F(OpsParity, InventoryOfAFolderWithoutTestsIsAUsageError) {
  Result r = run("ops --inventory " + (dir_ / "benchmark").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--inventory"));
}

TEST_F(OpsParity, FidelityComparesFlagGemsSizeDetailWithCaliberInputs) {
  // index_select at FlagGems' inputs (floor(0.1 * M) indices, dim between the tensors), one
  // case caliber does not build, and an op it does not have.
  std::ofstream(dir_ / "flaggems.log")
      << "Operator: index_select  Performance Test (dtype=torch.float16, mode=kernel,level=core)\n"
         "Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup          Size "
         "Detail\n"
         "------------------------------------------------------------------------------\n"
         "SUCCESS               0.004000            0.005000               0.800          "
         "[torch.Size([4096, 4096]), 0, torch.Size([409])]\n"
         "SUCCESS               0.004000            0.005000               0.800          "
         "[torch.Size([4096, 4096]), 0, torch.Size([2048])]\n"
         "\n"
         "Operator: fused_thing  Performance Test (dtype=torch.float16, mode=kernel,level=core)\n"
         "Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup          Size "
         "Detail\n"
         "------------------------------------------------------------------------------\n"
         "SUCCESS               0.004000            0.005000               0.800          "
         "[torch.Size([8])]\n";
  Result r = run("ops --fidelity " + (dir_ / "flaggems.log").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("different  index_select float16 #1"));
  EXPECT_THAT(r.output, HasSubstr("no corpus op answers to 'fused_thing'"));
  EXPECT_EQ(last_line(r.output), "fidelity: 3 cases: 1 same, 1 different, 1 unmatched");
}

TEST_F(OpsParity, FidelityOfFlagGemsSampleOutputReadsEveryTable) {
  fs::path sample = fs::path(CALIBER_SHARED_DIR) / "reference/flaggems/sample_benchmark_output.txt";
  if (!fs::exists(sample)) GTEST_SKIP() << sample << " absent";
  Result r = run("ops --fidelity " + sample.string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 2000);
  auto j = nlohmann::json::parse(r.output);
  EXPECT_GT(j["cases"].get<int>(), 30);
  EXPECT_EQ(j["cases"].get<int>(),
            j["same"].get<int>() + j["different"].get<int>() + j["unmatched"].get<int>());
}

TEST_F(OpsParity, FidelityWithoutAnyTableIsAUsageError) {
  std::ofstream(dir_ / "empty.log") << "nothing here\n";
  Result r = run("ops --fidelity " + (dir_ / "empty.log").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--fidelity: no FlagGems table"));
}

}  // namespace
