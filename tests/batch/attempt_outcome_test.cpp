#include "batch/attempt_outcome.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "batch_harness.h"
#include "core/atomic_file.h"

namespace caliber {
namespace {

ChildExit exited(int code) {
  ChildExit e;
  e.exit_code = code;
  return e;
}

AttemptOutcome failed(const std::string& error, int code = 1) {
  return classify_exit(exited(code), 10, error);
}

TEST(AttemptOutcome, ClassifiesExitCodesOfCaliberRun) {
  EXPECT_EQ(failed("", 0).state, OpState::kOk);
  EXPECT_EQ(failed("x", 1).state, OpState::kFailed);
  EXPECT_EQ(failed("x", 2).state, OpState::kBadInput);
  EXPECT_EQ(failed("x", 3).state, OpState::kDeviceFatal);
  EXPECT_EQ(failed("x", 127).state, OpState::kFailed);
}

TEST(AttemptOutcome, ClassifiesSignalsTimeoutsAndInterruptions) {
  ChildExit e;
  e.how = ChildExit::How::kSignaled;
  e.signal = SIGSEGV;
  AttemptOutcome crash = classify_exit(e, 10, "boom");
  EXPECT_EQ(crash.state, OpState::kCrashed);
  EXPECT_EQ(crash.error, "killed by SIGSEGV: boom");
  e.how = ChildExit::How::kTimedOut;
  EXPECT_EQ(classify_exit(e, 10, "").state, OpState::kHung);
  e.how = ChildExit::How::kInterrupted;
  EXPECT_EQ(classify_exit(e, 10, "").state, OpState::kInterrupted);
}

TEST(AttemptOutcome, SignatureIgnoresNumbersThatChangeBetweenAttempts) {
  EXPECT_EQ(failed("bad pointer 0x7ffd1234 in pid 4242").signature(),
            failed("bad pointer 0x7ffd9876 in pid 17").signature());
  EXPECT_NE(failed("out of memory").signature(), failed("illegal access").signature());
  EXPECT_NE(failed("x", 1).signature(), failed("x", 3).signature());
}

TEST(AttemptOutcome, RetriesUntilTheSameSignatureRepeats) {
  std::vector<AttemptOutcome> a = {failed("first")};
  EXPECT_TRUE(should_retry(a, 5));
  a.push_back(failed("second"));
  EXPECT_TRUE(should_retry(a, 5));
  a.push_back(failed("second"));
  EXPECT_FALSE(should_retry(a, 5));
}

TEST(AttemptOutcome, StopsAtTheRetryLimitAndOnSuccessOrBadInput) {
  EXPECT_FALSE(should_retry({failed("a"), failed("b")}, 1));
  EXPECT_FALSE(should_retry({failed("", 0)}, 5));
  EXPECT_FALSE(should_retry({failed("usage", 2)}, 5));
  EXPECT_TRUE(should_retry({}, 0));
}

TEST(AttemptOutcome, ErrorLineIsTheLastLineMentioningAnError) {
  auto dir = testing::fresh_temp_dir("errline");
  write_file_atomic(dir / "log", "start\nRuntimeError: first\nmore output\n\n");
  EXPECT_EQ(error_line_from_log(dir / "log"), "RuntimeError: first");
  write_file_atomic(dir / "log", "start\nlast words\n");
  EXPECT_EQ(error_line_from_log(dir / "log"), "last words");
  EXPECT_EQ(error_line_from_log(dir / "missing"), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace caliber
