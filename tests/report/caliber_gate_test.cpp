#include "report/caliber_gate.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::TempDir;
using testing::test_identity;
using testing::test_row;
using testing::write_run;

struct GatePair {
  TempDir dir{"caliber-gate"};
  RunCollection a, b;
  GatePair(const RunIdentity& ia, const RunIdentity& ib) {
    write_run(dir / "a", ia, {test_row("mm", "blas", {1, 1, 1, 1, 1})});
    write_run(dir / "b", ib, {test_row("mm", "blas", {1, 1, 1, 1, 1})});
    a = load_run_collection((dir / "a").string());
    b = load_run_collection((dir / "b").string());
  }
};

std::string refusal(const GatePair& p, const std::vector<std::string>& allowed) {
  try {
    enforce_caliber_gate(p.a, p.b, allowed);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  return "";
}

TEST(CaliberGate, RefusesATimerMismatchNamingTheField) {
  RunIdentity other = test_identity();
  other.timer = "direct";
  GatePair p(test_identity(), other);
  std::string message = refusal(p, {});
  EXPECT_NE(message.find("timer: A \"graph\", B \"direct\" (op mm)"), std::string::npos) << message;
  EXPECT_NE(message.find("--allow-mismatch"), std::string::npos);
}

TEST(CaliberGate, RefusesALevelMismatch) {
  RunIdentity other = test_identity();
  other.level = "comprehensive";
  GatePair p(test_identity(), other);
  std::string message = refusal(p, {});
  EXPECT_NE(message.find("level"), std::string::npos) << message;
  EXPECT_EQ(message.find("timer"), std::string::npos) << message;
}

TEST(CaliberGate, ListsEveryDifferingField) {
  RunIdentity other = test_identity();
  other.timer = "kernel";
  other.cache = "cold";
  GatePair p(test_identity(), other);
  std::string message = refusal(p, {});
  EXPECT_NE(message.find("differ in timer, cache"), std::string::npos) << message;
}

TEST(CaliberGate, RefusesColdRunsOfDifferentFlushMethods) {
  RunIdentity write = test_identity();
  write.cache = "cold";
  write.flush_method = "write";
  RunIdentity read = write;
  read.cache = "cold,flush=read";
  read.flush_method = "read";
  GatePair p(write, read);
  std::string message = refusal(p, {});
  EXPECT_NE(message.find("flush_method: A \"write\", B \"read\""), std::string::npos) << message;
  auto allowed = enforce_caliber_gate(p.a, p.b, {"cache", "flush_method"});
  EXPECT_EQ(allowed.size(), 2u);
}

TEST(CaliberGate, AllowMismatchAcceptsAndReturnsTheAllowedField) {
  RunIdentity other = test_identity();
  other.timer = "direct";
  GatePair p(test_identity(), other);
  auto allowed = enforce_caliber_gate(p.a, p.b, {"timer"});
  ASSERT_EQ(allowed.size(), 1u);
  EXPECT_EQ(allowed[0].field, "timer");
}

TEST(CaliberGate, AllowingOneFieldStillRefusesAnother) {
  RunIdentity other = test_identity();
  other.timer = "direct";
  other.level = "comprehensive";
  GatePair p(test_identity(), other);
  std::string message = refusal(p, {"timer"});
  EXPECT_NE(message.find("level"), std::string::npos) << message;
}

TEST(CaliberGate, FieldsThatDoNotChangeNumbersPass) {
  RunIdentity other = test_identity();
  other.host = "elsewhere";
  other.start_time = "2026-01-01T00:00:00Z";
  other.harness_version = "v2";
  GatePair p(test_identity(), other);
  EXPECT_TRUE(enforce_caliber_gate(p.a, p.b, {}).empty());
}

TEST(CaliberGate, RejectsAnUnknownAllowedField) {
  GatePair p(test_identity(), test_identity());
  std::string message = refusal(p, {"colour"});
  EXPECT_NE(message.find("'colour' is not a number-changing field"), std::string::npos);
}

TEST(CaliberGate, ABareLogHasNoIdentityToMatch) {
  TempDir dir("caliber-gate-log");
  write_run(dir / "a", test_identity(), {test_row("mm", "blas", {1, 1, 1, 1, 1})});
  std::filesystem::create_directories(dir / "b");
  write_file_atomic(dir / "b" / "run.log",
                    read_file(std::string(CALIBER_TEST_DATA) + "/flaggems_run.log"));
  auto a = load_run_collection((dir / "a").string());
  auto b = load_run_collection((dir / "b").string());
  auto mismatches = caliber_mismatches(a, b);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].field, "run_identity");
  EXPECT_NO_THROW(enforce_caliber_gate(a, b, {"run_identity"}));
}

}  // namespace
}  // namespace caliber
