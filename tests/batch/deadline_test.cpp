// When an attempt counts as hung: a fixed time, or a window that each new row restarts.
#include "batch/deadline.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace caliber {
namespace {

using std::chrono::milliseconds;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Polls `deadline` while `feed` (called every 50 ms) may append rows; the seconds until it
// passed.
template <typename Feed>
double seconds_until_passed(Deadline& deadline, Feed feed) {
  auto t0 = Clock::now();
  while (!deadline.passed()) {
    feed(seconds_since(t0));
    std::this_thread::sleep_for(milliseconds(50));
    if (seconds_since(t0) > 10) return -1;
  }
  return seconds_since(t0);
}

class DeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rows_ = std::filesystem::temp_directory_path() /
            ("caliber_deadline_" + std::to_string(::getpid()) + ".jsonl");
    std::ofstream(rows_) << "{\"row\":0}\n";
  }
  void TearDown() override { std::filesystem::remove(rows_); }
  void append_row() { std::ofstream(rows_, std::ios::app) << "{\"row\":1}\n"; }
  std::filesystem::path rows_;
};

TEST_F(DeadlineTest, AFixedDeadlinePassesAtItsTime) {
  Deadline d = Deadline::at(Clock::now() + milliseconds(400));
  double s = seconds_until_passed(d, [&](double) { append_row(); });
  EXPECT_GE(s, 0.35);
  EXPECT_LT(s, 0.9);
}

TEST_F(DeadlineTest, RowsThatKeepComingKeepItOpenUntilTheyStop) {
  Deadline d = Deadline::after_progress(0.6, 10, rows_);
  double s = seconds_until_passed(d, [&](double t) {
    if (t < 1.5) append_row();
  });
  EXPECT_GE(s, 1.9);  // the last row near 1.5 s, then the 0.6 s window
  EXPECT_LT(s, 3.0);
  EXPECT_NE(d.reason().find("no case measured in its last 1 s"), std::string::npos) << d.reason();
}

TEST_F(DeadlineTest, TheCapEndsItThoughRowsKeepComing) {
  Deadline d = Deadline::after_progress(0.5, 2, rows_);
  double s = seconds_until_passed(d, [&](double) { append_row(); });
  EXPECT_GE(s, 0.95);
  EXPECT_LT(s, 1.6);
  EXPECT_NE(d.reason().find("the cap of its"), std::string::npos) << d.reason();
}

TEST_F(DeadlineTest, NoRowsMeansTheWindowFromTheStart) {
  Deadline d = Deadline::after_progress(0.5, 10, rows_);
  double s = seconds_until_passed(d, [](double) {});
  EXPECT_GE(s, 0.45);
  EXPECT_LT(s, 1.0);
  EXPECT_EQ(d.reason(), "timed out after 0 s");  // fmt rounds 0.5 to even
}

// A retry's run clears the killed attempt's rows at its start: shrinking is not progress.
TEST_F(DeadlineTest, AClearedFileIsNotARow) {
  Deadline d = Deadline::after_progress(0.5, 10, rows_);
  double s = seconds_until_passed(d, [&](double) { std::ofstream(rows_, std::ios::trunc); });
  EXPECT_LT(s, 1.0);
}

TEST_F(DeadlineTest, AStretchOfOneIsAFixedDeadline) {
  Deadline d = Deadline::after_progress(0.5, 1, rows_);
  double s = seconds_until_passed(d, [&](double) { append_row(); });
  EXPECT_LT(s, 1.0);
  EXPECT_EQ(d.reason().find("no case"), std::string::npos) << d.reason();
}

}  // namespace
}  // namespace caliber
