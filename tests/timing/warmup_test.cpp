#include "timing/warmup.h"

#include <gtest/gtest.h>

#include "fake_device_api.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;

TEST(Warmup, StopsWithinOneCallOfItsTimeInsteadOfAWholeDoubledChunk) {
  FakeDeviceApi api;
  api.call_ms = {0.1};
  api.host_overhead_ms = 0;
  // Doubling chunks alone (1, 2, 4, ..., 32 calls) would run 63 calls, 6.3 ms.
  Warmup w = warm_up(
      api, [] {}, 3, 5, nullptr);
  EXPECT_GE(w.elapsed_ms, 5 - 1e-9);
  EXPECT_LE(w.elapsed_ms, 5.1 + 1e-9);
  EXPECT_LE(w.calls, 51);  // 50, or one more where 50 x 0.1 rounds below 5
}

TEST(Warmup, RunsAtLeastItsCallsWhenTheTimeIsUp) {
  FakeDeviceApi api;
  api.call_ms = {10.0};
  Warmup w = warm_up(
      api, [] {}, 3, 5, nullptr);
  EXPECT_EQ(w.calls, 3);
  EXPECT_NEAR(w.per_call_ms, 10.0, 1e-9);
}

// The warmup of at least 3 calls and `min_ms` of calls lasting `call_ms` in turn.
Warmup warm_up_calls(std::vector<double> call_ms, double min_ms) {
  FakeDeviceApi api;
  api.call_ms = std::move(call_ms);
  return warm_up(
      api, [] {}, 3, min_ms, nullptr);
}

TEST(Warmup, ALongCallIsWarmAfterTwo) {
  Warmup w = warm_up_calls({80.0}, 5);
  EXPECT_EQ(w.calls, 2);
  EXPECT_NEAR(w.per_call_ms, 80.0, 1e-9);
  // A long first call (JIT) before short ones is not a long call: three calls, as asked, and the
  // estimate from the short ones.
  w = warm_up_calls({80.0, 1.0, 1.0, 1.0}, 5);
  EXPECT_EQ(w.calls, 3);
  EXPECT_NEAR(w.per_call_ms, 1.0, 1e-9);
  // The warmup's time still holds: calls of 60 ms against 200 ms of warmup.
  EXPECT_EQ(warm_up_calls({60.0}, 200).calls, 4);
}

TEST(Warmup, TheFirstCallIsNeverTheEstimate) {
  FakeDeviceApi api;
  api.call_ms = {50.0, 1.0};  // JIT on the first call, then 1 ms
  Warmup w = warm_up(
      api, [] {}, 2, 0, nullptr);
  EXPECT_EQ(w.calls, 2);
  EXPECT_NEAR(w.per_call_ms, 1.0, 1e-9);
}

}  // namespace
}  // namespace caliber
