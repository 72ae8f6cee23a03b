#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct Result {
  int rc;
  std::string out;
};

Result run(const std::string& args, const std::string& env = "") {
  std::string cmd = env + " " + CALIBER_BINARY + " " + args + " 2>&1";
  Result r{-1, ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) r.out.append(buf.data(), n);
  int status = pclose(pipe);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(OpsCommand, VerifyPassesOnCpu) {
  Result r = run("ops --verify --backend cpu --json");
  ASSERT_EQ(r.rc, 0) << r.out.substr(0, 4000);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counts"].value("failed", 0), 0);
  EXPECT_GE(j["counts"]["verified"].get<int>(), 450);  // >= 150 ops x their dtypes
  EXPECT_LT(j["seconds"].get<double>(), 60.0);
}

TEST(OpsCommand, VerifyListsDismissedOpsWithTheirReason) {
  auto path = std::filesystem::temp_directory_path() / "caliber_dismiss_test.yaml";
  std::ofstream(path) << "- {op: mm, reason: known slow path, verified_on: cpu/2026-11-29, "
                         "backend: cpu}\n";
  Result r = run("ops --verify --backend cpu --op mm --dismiss-file " + path.string());
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_THAT(r.out, ::testing::HasSubstr("dismissed"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("known slow path"));
  std::ofstream(path) << "- {op: mm, verified_on: cpu/2026-11-29}\n";
  r = run("ops --verify --backend cpu --op mm --dismiss-file " + path.string());
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_THAT(r.out, ::testing::HasSubstr("'mm' has no reason"));
  std::filesystem::remove(path);
}

TEST(OpsCommand, ListsFamilyWithShapeCountsAtLevel) {
  Result r = run("ops --family blas --level comprehensive --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  auto rows = nlohmann::json::parse(r.out);
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
  EXPECT_EQ(run("ops --family nosuch").rc, 2);
  auto path = std::filesystem::temp_directory_path() / "caliber_bad_shapes.yaml";
  std::ofstream(path) << "mm:\n  shapes: [[1, 2\n";
  Result r = run("ops --op mm --shape-file " + path.string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.out, ::testing::HasSubstr(path.string() + ":"));
  std::filesystem::remove(path);
}

TEST(OpsCommand, SelftestOpsAppearOnlyWithTheSwitch) {
  EXPECT_THAT(run("ops --family selftest --json").out,
              ::testing::Not(::testing::HasSubstr("selftest_fail")));
  Result r = run("ops --family selftest --json", "CALIBER_SELFTEST=1");
  ASSERT_EQ(r.rc, 0) << r.out;
  for (const char* name : {"selftest_segfault", "selftest_hang", "selftest_fail", "selftest_flaky",
                           "selftest_dtype_fail", "selftest_device_fatal", "selftest_orphan"}) {
    EXPECT_THAT(r.out, ::testing::HasSubstr(name));
  }
}

}  // namespace
