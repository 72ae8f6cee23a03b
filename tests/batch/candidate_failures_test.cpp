#include "batch/candidate_failures.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "core/atomic_file.h"
#include "core/file_tree.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

class CandidateFailures : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("caliber_candidate_failures_" + std::to_string(::getpid()));
    std::error_code ec;
    remove_tree(dir_, ec);
    fs::create_directories(dir_);
    ended_.state = OpState::kFailed;
    ended_.error = "caliber run end 2026-12-07T21:56:16Z: 4 rows, 1 failed, wall 3.7 s, exit 1";
  }
  void TearDown() override {
    std::error_code ec;
    remove_tree(dir_, ec);
  }
  void rows(const std::string& jsonl) { write_file_atomic(dir_ / "results.jsonl", jsonl); }
  static std::string row(const std::string& dtype, const std::string& provider,
                         const std::string& status) {
    return "{\"op\":\"x\",\"dtype\":\"" + dtype + "\",\"provider\":\"" + provider +
           "\",\"status\":\"" + status + "\"}\n";
  }

  fs::path dir_;
  AttemptOutcome ended_;
};

TEST_F(CandidateFailures, SplitsTheDtypesByTheCandidatesFailedRows) {
  rows(row("float16", "baseline", "SUCCESS") + row("float16", "python:flag_gems", "FAILED") +
       row("float32", "baseline", "SUCCESS") + row("float32", "python:flag_gems", "NOT_COVERED"));
  auto split = candidate_only_failures(ended_, dir_, {"float16", "float32"});
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->failed, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(split->passed, (std::vector<std::string>{"float32"}));
  // No dtypes asked: those the rows hold.
  EXPECT_TRUE(candidate_only_failures(ended_, dir_, {}).has_value());
}

TEST_F(CandidateFailures, AFailedBaselineRowIsNotTheCandidatesAnswer) {
  rows(row("float16", "baseline", "FAILED") + row("float16", "python:flag_gems", "FAILED") +
       row("float32", "baseline", "SUCCESS") + row("float32", "python:flag_gems", "SUCCESS"));
  EXPECT_FALSE(candidate_only_failures(ended_, dir_, {"float16", "float32"}).has_value());
}

TEST_F(CandidateFailures, ADtypeWithoutRowsIsNotAnswered) {
  rows(row("float16", "baseline", "SUCCESS") + row("float16", "python:flag_gems", "FAILED"));
  EXPECT_FALSE(candidate_only_failures(ended_, dir_, {"float16", "float32"}).has_value());
}

TEST_F(CandidateFailures, OnlyARunThatEndedCounts) {
  rows(row("float16", "baseline", "SUCCESS") + row("float16", "python:flag_gems", "FAILED"));
  AttemptOutcome raised = ended_;
  raised.error = "RuntimeError: CUDA out of memory";
  EXPECT_FALSE(candidate_only_failures(raised, dir_, {"float16"}).has_value());
  AttemptOutcome crashed = ended_;
  crashed.state = OpState::kCrashed;
  EXPECT_FALSE(candidate_only_failures(crashed, dir_, {"float16"}).has_value());
  EXPECT_TRUE(candidate_only_failures(ended_, dir_, {"float16"}).has_value());
}

TEST_F(CandidateFailures, ARunWithNoFailedRowIsNotAnswered) {
  rows(row("float16", "baseline", "SUCCESS") + row("float16", "python:flag_gems", "SUCCESS"));
  EXPECT_FALSE(candidate_only_failures(ended_, dir_, {"float16"}).has_value());
}

}  // namespace
}  // namespace caliber
