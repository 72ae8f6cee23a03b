#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/shell_command.h"

namespace {

using Result = caliber::testing::ShellResult;

Result run(const std::string& args, const std::string& env = "") {
  return caliber::testing::run_shell(env + " " + CALIBER_BINARY + " " + args);
}

// The failed cases of a verify's JSON output, with the op and dtype a few keys before each
// status: ATen's warnings fill the output's first kilobytes.
std::string failed_cases(const std::string& output) {
  std::string out;
  for (size_t at = output.find("\"failed\""); at != std::string::npos;
       at = output.find("\"failed\"", at + 1)) {
    const size_t from = at > 300 ? at - 300 : 0;
    out += output.substr(from, at - from + 10) + "\n---\n";
  }
  return out.empty() ? output.substr(output.size() > 4000 ? output.size() - 4000 : 0) : out;
}

TEST(OpsCommand, VerifyPassesOnCpu) {
  Result r = run("ops --verify --backend cpu --json");
  ASSERT_EQ(r.exit_code, 0) << failed_cases(r.output);
  // stderr is folded in: ATen's warnings (ComplexHalf is experimental...) come before the JSON.
  const size_t begin = r.output.rfind("\n{", r.output.find("\"counts\"")) + 1;
  const size_t end = r.output.rfind("\n}") + 2;
  ASSERT_LT(begin, end) << r.output.substr(0, 4000);
  auto j = nlohmann::json::parse(r.output.substr(begin, end - begin));
  EXPECT_EQ(j["counts"].value("failed", 0), 0);
  EXPECT_GE(j["counts"]["verified"].get<int>(), 450);  // >= 150 ops x their dtypes
  // 780 ops x their dtypes since issue 15: 72 s on the shared 2-core host (2026-11-30).
  EXPECT_LT(j["seconds"].get<double>(), 240.0);
}

TEST(OpsCommand, VerifyListsDismissedOpsWithTheirReason) {
  auto path = std::filesystem::temp_directory_path() / "caliber_dismiss_test.yaml";
  std::ofstream(path) << "- {op: mm, reason: known slow path, verified_on: cpu/2026-11-29, "
                         "backend: cpu}\n";
  Result r = run("ops --verify --backend cpu --op mm --dismiss-file " + path.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("dismissed"));
  EXPECT_THAT(r.output, ::testing::HasSubstr("known slow path"));
  std::ofstream(path) << "- {op: mm, verified_on: cpu/2026-11-29}\n";
  r = run("ops --verify --backend cpu --op mm --dismiss-file " + path.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("'mm' has no reason"));
  std::filesystem::remove(path);
}

TEST(OpsCommand, AnOpWhoseEveryShapeIsLeftOutIsSkippedNotFailed) {
  auto path = std::filesystem::temp_directory_path() / "caliber_large_shapes.yaml";
  std::ofstream(path) << "one_hot:\n  shapes: [[1073741824], [1024, 1024, 1024]]\n";
  Result r = run("ops --verify --backend cpu --op one_hot --json --shape-file " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["counts"].value("skipped", 0), 1);
  EXPECT_THAT(j["cases"][0]["detail"].get<std::string>(),
              ::testing::HasSubstr("no shape left: [1073741824]: one_hot output of"));
  r = run("ops --op one_hot --json --shape-file " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = nlohmann::json::parse(r.output);
  EXPECT_EQ(rows[0]["cases_per_dtype"].get<int>(), 0);
  EXPECT_EQ(rows[0]["skipped_shapes"].size(), 2u);
  std::filesystem::remove(path);
}

TEST(OpsCommand, ListsFamilyWithShapeCountsAtLevel) {
  Result r = run("ops --family blas --level comprehensive --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = nlohmann::json::parse(r.output);
  bool found = false;
  for (const auto& row : rows) {
    EXPECT_EQ(row["family"], "blas");
    if (row["op"] == "mm") {
      found = true;
      EXPECT_EQ(row["cases_per_dtype"].get<int>(), 242);
      EXPECT_EQ(row["shapes"].get<int>(), 121);
    }
  }
  EXPECT_TRUE(found);
}

TEST(OpsCommand, RejectsAnUnknownFamilyAndAMalformedShapeFile) {
  EXPECT_EQ(run("ops --family nosuch").exit_code, 2);
  auto path = std::filesystem::temp_directory_path() / "caliber_bad_shapes.yaml";
  std::ofstream(path) << "mm:\n  shapes: [[1, 2\n";
  Result r = run("ops --op mm --shape-file " + path.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.output, ::testing::HasSubstr(path.string() + ":"));
  std::filesystem::remove(path);
}

TEST(OpsCommand, SelftestOpsAppearOnlyWithTheSwitch) {
  EXPECT_THAT(run("ops --family selftest --json").output,
              ::testing::Not(::testing::HasSubstr("selftest_fail")));
  Result r = run("ops --family selftest --json", "CALIBER_SELFTEST=1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name : {"selftest_segfault", "selftest_hang", "selftest_fail", "selftest_flaky",
                           "selftest_dtype_fail", "selftest_device_fatal", "selftest_orphan"}) {
    EXPECT_THAT(r.output, ::testing::HasSubstr(name));
  }
}

}  // namespace
