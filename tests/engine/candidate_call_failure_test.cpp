#include "engine/candidate_call_failure.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"
#include "engine/provider/dispatch_snapshot.h"  // the null snapshot a bare Provider is given

namespace caliber {
namespace {

using ::testing::HasSubstr;

// A candidate with no code of its own: rethrow_candidate_failure hands back what it is given.
class SilentCandidate : public Provider {
 public:
  SilentCandidate() : Provider("python:silent", nullptr) {}
  std::string version() const override { return "0"; }

 protected:
  void enter() override {}
  void exit(bool) override {}
};

const FailureClassifier kCuda({{"illegal memory access", CaptureVerdict::kFatal},
                               {"not permitted when stream is capturing",
                                CaptureVerdict::kRefused}});

template <typename Failure>
void fail_in_call(const Failure& failure) {
  SilentCandidate candidate;
  try {
    throw failure;
  } catch (...) {
    rethrow_candidate_call_failure(candidate, kCuda, "python function toy.fused");
  }
}

TEST(CandidateCallFailure, ADeviceFailureStopsTheRunAndNamesTheCall) {
  try {
    fail_in_call(std::runtime_error("CUDA error: an illegal memory access was encountered"));
    FAIL() << "nothing thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeviceFatal);
    EXPECT_THAT(e.what(), HasSubstr("device failure in python function toy.fused: CUDA error: an "
                                    "illegal memory access was encountered"));
  }
}

TEST(CandidateCallFailure, OtherFailuresStayTheCandidates) {
  // Not a device failure, nor a fatal one by the backend's wording: left to the provider.
  EXPECT_THROW(fail_in_call(std::runtime_error("shapes [2] and [3] differ")), std::runtime_error);
  EXPECT_THROW(fail_in_call(std::runtime_error("operation not permitted when stream is capturing")),
               std::runtime_error);
  EXPECT_THROW(fail_in_call(42), int);
}

TEST(CandidateCallFailure, CalibersOwnErrorsPassUnchanged) {
  try {
    fail_in_call(Error(ErrorKind::kOpFailure, "result differs: illegal memory access in text"));
    FAIL() << "nothing thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
  }
}

}  // namespace
}  // namespace caliber
