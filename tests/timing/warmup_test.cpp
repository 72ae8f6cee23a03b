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
  api.call_ms = {0.9};  // under a millisecond: the calls asked for, not two
  Warmup w = warm_up(
      api, [] {}, 3, 0.5, nullptr);
  EXPECT_EQ(w.calls, 3);
  EXPECT_NEAR(w.per_call_ms, 0.9, 1e-9);
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
  w = warm_up_calls({80.0, 0.5, 0.5, 0.5}, 5);
  EXPECT_EQ(w.calls, 3);
  EXPECT_NEAR(w.per_call_ms, 0.5, 1e-9);
  // From a millisecond on, two calls do, once the warmup's time has passed: calls of 3 ms
  // against 5 ms of warmup, and of 60 ms against 200 ms.
  EXPECT_EQ(warm_up_calls({3.0}, 5).calls, 2);
  EXPECT_EQ(warm_up_calls({1.0}, 0).calls, 2);
  EXPECT_EQ(warm_up_calls({60.0}, 200).calls, 4);
}

TEST(Warmup, CountsTheCallAlreadyMadeOnTheSameInputs) {
  FakeDeviceApi api;
  api.call_ms = {3.0};
  // The engine's untimed call was the first: one long call reads the time.
  Warmup w = warm_up(
      api, [] {}, 3, 0, nullptr, /*calls_made=*/1);
  EXPECT_EQ(w.calls, 1);
  EXPECT_NEAR(w.per_call_ms, 3.0, 1e-9);
  // Short calls: one call fewer than asked, and the estimate may take the first of them.
  FakeDeviceApi short_calls;
  short_calls.call_ms = {0.2, 0.1};
  w = warm_up(
      short_calls, [] {}, 3, 0, nullptr, /*calls_made=*/1);
  EXPECT_EQ(w.calls, 2);
  EXPECT_NEAR(w.per_call_ms, 0.15, 1e-9);
  // Never more than one call less, and the time still holds.
  FakeDeviceApi timed;
  timed.call_ms = {3.0};
  EXPECT_EQ(warm_up(
                timed, [] {}, 3, 5, nullptr, /*calls_made=*/4)
                .calls,
            2);
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
