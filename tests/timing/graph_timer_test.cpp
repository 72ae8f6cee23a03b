#include "timing/graph_timer.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "fake_device_api.h"
#include "timing/failure_verdicts.h"
#include "timing/measure.h"

namespace caliber {
namespace {

using testing::FakeDeviceApi;
using testing::plan_for;
using testing::test_options;

bool logged(const FakeDeviceApi& api, const std::string& entry) {
  return std::find(api.log.begin(), api.log.end(), entry) != api.log.end();
}

MeasureOptions adaptive_options(int captures) {
  MeasureOptions options = test_options();
  options.sampling.policy = SamplePolicy::kAdaptive;
  options.graph.captures = captures;
  return options;
}

// Calls of `call_ms` whose every other capture replays `spread` of that slower, the layout
// spread that grows captures under the adaptive policy (1.6%: 8 graphs leave a standard error of
// about 0.30%, 16 0.21%, 32 0.14%).
FakeDeviceApi spread_captures(double call_ms, double spread = 0.016) {
  FakeDeviceApi api;
  api.call_ms = {call_ms};
  api.capture_offset_ms = {0, call_ms * spread};
  return api;
}

TEST(GraphTimer, SampleIsOneReplayDividedByCallsPerGraph) {
  FakeDeviceApi api;
  api.call_ms = {0.01};  // 2 ms replay target -> 200 calls per graph
  MeasureOptions options = test_options();
  options.graph.captures = 1;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(m.timer_used, Timer::kGraph);
  EXPECT_EQ(api.last_calls_per_graph, 200);
  EXPECT_EQ(m.calls_per_sample, 200);
  EXPECT_NEAR(m.latency_ms, 0.01, 1e-12);
  EXPECT_TRUE(m.markers.empty());
}

TEST(GraphTimer, SamplesEveryCaptureEquallyAndRecordsTheirSpread) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  // Four captures of the same calls, each replaying at its own speed.
  api.capture_offset_ms = {0, 0.001, 0.002, 0.003};
  MeasureOptions options = test_options();
  options.graph.captures = 4;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.captures, 4);
  EXPECT_EQ(m.graph_captures, 4);
  // As many samples of each: the median sits between the second and third graphs.
  EXPECT_EQ(m.samples_ms.size() % 4, 0u);
  EXPECT_NEAR(m.median_ms, 0.0115, 1e-9);
  EXPECT_NEAR(m.capture_spread, 0.003 / 0.0115, 1e-6);
}

TEST(GraphTimer, CapturesShareTheReplayTargetDownToTheShortestReplay) {
  for (auto [captures, calls] : {std::pair{1, 200}, {2, 100}, {4, 50}, {8, 25}, {16, 25}}) {
    FakeDeviceApi api;
    api.call_ms = {0.01};  // 2 ms target over K graphs, none shorter than 0.25 ms
    MeasureOptions options = test_options();
    options.graph.captures = captures;
    Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
    EXPECT_EQ(api.captures, captures);
    EXPECT_EQ(api.last_calls_per_graph, calls) << captures << " captures";
    EXPECT_EQ(m.calls_per_sample, calls);
  }
}

TEST(GraphTimer, SizesGraphsFromAReplayWhenTheWarmupReadsTheLaunch) {
  FakeDeviceApi api;
  api.call_ms = {0.0025};
  api.launch_floor_ms = 0.02;  // the warmup reads 8x the device's time per call
  MeasureOptions options = test_options();
  options.graph.captures = 4;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  // The warmup's reading gives 25 calls; one replay of that graph says 200 fill the 0.5 ms.
  EXPECT_EQ(api.last_calls_per_graph, 200);
  EXPECT_EQ(m.calls_per_sample, 200);
  EXPECT_EQ(api.captures, 5);  // the first graph, captured again at its size
  EXPECT_EQ(m.graph_captures, 4);
  EXPECT_NEAR(m.latency_ms, 0.0025, 1e-12);
}

TEST(GraphTimer, KeepsTheFirstGraphWhenTheWarmupReadTheDevice) {
  FakeDeviceApi api;
  api.call_ms = {0.0025};
  api.launch_floor_ms = 0.0028;  // within a quarter of the device's time: no second capture
  MeasureOptions options = test_options();
  options.graph.captures = 4;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.captures, 4);
  EXPECT_EQ(m.calls_per_sample, 179);  // ceil(0.5 / 0.0028)
}

// Calls shorter than their launch: events around each read 5 us, a replay starts in 1.5 us.
FakeDeviceApi launch_bound(std::vector<double> call_ms) {
  FakeDeviceApi api;
  api.call_ms = std::move(call_ms);
  api.launch_floor_ms = 0.005;
  api.graph_replay_start_ms = 0.0015;
  return api;
}

TEST(GraphTimer, LeavesTheGraphsOfACallWithoutDeviceWorkAtTheirFirstSize) {
  FakeDeviceApi api = launch_bound({0});  // an allocation or a view: nothing on the device
  MeasureOptions options = test_options();
  options.graph.captures = 4;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  // 100 calls from the warmup's reading; sized from the replay (0.015 ns a call) they would be
  // the most a graph may hold.
  EXPECT_EQ(api.last_calls_per_graph, 100);
  EXPECT_EQ(api.captures, 4);
  EXPECT_THAT(m.markers, ::testing::Contains("no_device_work"));
  // Under the adaptive policy it keeps its captures however they spread (every other graph 23%
  // slower here) and stops sampling at the floor, about 10 ms of 4.4 us replays, however noisy
  // its replays are (a cycle of 7 call durations over graphs of 100 calls).
  FakeDeviceApi spread = launch_bound({0, 1e-5, 2e-5, 3e-5, 4e-5, 5e-5, 6e-5});
  spread.capture_offset_ms = {0, 1e-5};
  MeasureOptions adaptive = adaptive_options(4);
  adaptive.sampling.noise_target = 1e-9;  // met by no replays of work
  Measurement floor = measure(spread, plan_for(Timer::kGraph), adaptive, [] {});
  EXPECT_EQ(floor.graph_captures, 4);
  EXPECT_THAT(floor.markers, ::testing::Contains("no_device_work"));
  EXPECT_LT(floor.samples_ms.size(), 1000u);  // the 1 s ceiling would take about 10,000

  // A tenth of a microsecond of device time a call and more is work: sized and not marked.
  FakeDeviceApi worked = launch_bound({0.00015});
  m = measure(worked, plan_for(Timer::kGraph), options, [] {});
  EXPECT_GT(worked.last_calls_per_graph, 100);
  EXPECT_THAT(m.markers, ::testing::Not(::testing::Contains("no_device_work")));
}

TEST(GraphTimer, KeepsCapturingOnlyWhileAnotherGraphFitsInDeviceMemory) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  FakeDeviceApi api;
  api.call_ms = {0.01};
  // 100 GiB device, 40 free, 10 per graph: the reserve is 5 GiB, so a third graph (free 20,
  // needing 2 x 10 + 5) is not captured.
  api.memory_total_bytes = 100 * kGiB;
  api.memory_free_bytes = 40 * kGiB;
  api.capture_bytes = 10 * kGiB;
  MeasureOptions options = test_options();
  options.graph.captures = 8;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.captures, 2);
  EXPECT_EQ(m.graph_captures, 2);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_bounded[2/8,memory]"));
  EXPECT_EQ(m.samples_ms.size() % 2, 0u);
}

TEST(GraphTimer, HandsCachedMemoryBackBeforeMeasuringTheFirstGraphWhenLittleIsFree) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  FakeDeviceApi api;
  api.call_ms = {0.01};
  // 10 GiB free, 80 held by the allocator (an earlier case's graphs): released first, the
  // graphs of 20 GiB fit three times (90 -> 70 -> 50 -> 30, the fourth needs 45).
  api.memory_total_bytes = 100 * kGiB;
  api.memory_free_bytes = 10 * kGiB;
  api.memory_cached_bytes = 80 * kGiB;
  api.capture_bytes = 20 * kGiB;
  MeasureOptions options = test_options();
  options.graph.captures = 8;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  auto release = std::find(api.log.begin(), api.log.end(), "release");
  ASSERT_NE(release, api.log.end());
  EXPECT_LT(release, std::find(api.log.begin(), api.log.end(), "capture"));
  EXPECT_EQ(m.graph_captures, 3);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_bounded[3/8,memory]"));
}

TEST(GraphTimer, CapturesAllAskedWhenMemoryIsPlentyOrUnknown) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  for (bool known : {true, false}) {
    FakeDeviceApi api;
    api.call_ms = {0.01};
    if (known) {
      api.memory_total_bytes = 100 * kGiB;
      api.memory_free_bytes = 90 * kGiB;
      api.capture_bytes = kGiB;
    }
    MeasureOptions options = test_options();
    options.graph.captures = 8;
    Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
    EXPECT_EQ(api.captures, 8);
    EXPECT_EQ(m.graph_captures, 8);
    EXPECT_TRUE(m.markers.empty());
    EXPECT_FALSE(logged(api, "release"));
  }
}

TEST(GraphTimer, AGraphOfFewCallsOfNothingIsNotReadAsWorkFromItsOwnStart) {
  // Sized from the warmup, 25 calls of a view: the replay's own 3 us start is 0.12 us a call.
  FakeDeviceApi api;
  api.call_ms = {0};
  api.launch_floor_ms = 0.02;
  api.graph_replay_start_ms = 0.003;
  MeasureOptions options = test_options();
  options.graph.captures = 4;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.last_calls_per_graph, 25);
  EXPECT_THAT(m.markers, ::testing::Contains("no_device_work"));

  // Two calls of 1.4 us kernels (a host-heavy op) stay work: too few calls for the allowance.
  FakeDeviceApi worked;
  worked.call_ms = {0.0014};
  worked.launch_floor_ms = 0.25;
  worked.graph_replay_start_ms = 0.0015;
  m = measure(worked, plan_for(Timer::kGraph), options, [] {});
  EXPECT_GT(worked.last_calls_per_graph, 2);  // sized again from the replay
  EXPECT_THAT(m.markers, ::testing::Not(::testing::Contains("no_device_work")));
}

TEST(GraphTimer, AViewIsReadAgainAtTheSizeItsFirstReplayGaveIt) {
  // A replay's own start of 10 us, over the 5 us allowance: 50 calls of a view read 0.1 us a
  // call, not nothing, and are sized to 500; the replay of those 500 shows no device work.
  FakeDeviceApi api = launch_bound({0});
  api.graph_replay_start_ms = 0.01;
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(api.last_calls_per_graph, 500);
  EXPECT_THAT(m.markers, ::testing::Contains("no_device_work"));
  EXPECT_EQ(m.graph_captures, 8);  // never grown
}

TEST(GraphTimer, CapturesGrowOnlyWithinTheAdaptivePolicysTimeCeiling) {
  // 100 ms calls whose captures spread 1.6% (they would grow to 32 graphs): one round of 8 fits
  // the 1 s ceiling, a second set of 8 would not.
  FakeDeviceApi api = spread_captures(100);
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(m.graph_captures, 8);
  EXPECT_EQ(m.samples_ms.size(), 8u);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_bounded[8/16,time]"));

  // With room under the ceiling the same spread grows them.
  FakeDeviceApi room = spread_captures(100);
  MeasureOptions options = adaptive_options(8);
  options.sampling.max_time_s = 60;
  m = measure(room, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(m.graph_captures, 32);
}

TEST(GraphTimer, TheCeilingOnGrowthCountsTheCapturesTime) {
  // 50 us calls whose captures spread 1.6% (they would grow to 32 graphs), 5 calls a graph, each
  // graph 60 ms to capture: 8 graphs took 0.48 s, 8 more fit under the 1 s ceiling, 16 more not.
  FakeDeviceApi api = spread_captures(0.05);
  api.capture_host_ms_per_call = 12;
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(m.calls_per_sample, 5);
  EXPECT_EQ(m.graph_captures, 16);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_bounded[16/32,time]"));
  // Captures that cost nothing grow to 32 (AdaptivePolicyAddsCapturesWhile... below).
}

TEST(GraphTimer, CallsTooLongForOneRoundUnderTheCeilingTakeFewerCapturesOnce) {
  // One round of 8 graphs of one call would take 8 x 200 ms against the 1 s ceiling: 5 captures
  // (what fits, and the samples a verdict needs), one replay each, never grown.
  for (auto [call_ms, captures] : {std::pair{200.0, 5}, {1000.0, 5}, {110.0, 8}, {150.0, 6}}) {
    FakeDeviceApi api = spread_captures(call_ms);  // a spread that would otherwise grow them
    Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
    EXPECT_EQ(m.graph_captures, captures) << call_ms << " ms";
    EXPECT_EQ(api.captures, captures) << call_ms << " ms";
    EXPECT_EQ(m.calls_per_sample, 1);
    if (captures < 8) {
      EXPECT_EQ(m.samples_ms.size(), static_cast<size_t>(captures)) << call_ms << " ms";
      EXPECT_THAT(m.markers,
                  ::testing::Contains(fmt::format("captures_bounded[{}/8,time]", captures)));
    } else {
      EXPECT_THAT(m.markers, ::testing::Not(::testing::Contains("captures_bounded[8/8,time]")));
    }
  }
  // The fixed policy keeps its count whatever a call costs.
  FakeDeviceApi fixed;
  fixed.call_ms = {200};
  MeasureOptions options = test_options();
  options.graph.captures = 8;
  Measurement m = measure(fixed, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(m.graph_captures, 8);
}

TEST(GraphTimer, AdaptivePolicyAddsCapturesWhileTheirSpreadLeavesTheMeanImprecise) {
  FakeDeviceApi api;
  api.call_ms = {0.05};
  // Every other graph replays 1.6% slower: the standard error of the captures' mean is about
  // 0.30% with 8 graphs, 0.21% with 16 and 0.14% with 32, against a 0.15% target at 50 us.
  api.capture_offset_ms = {0, 0.0008};
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(api.captures, 32);
  EXPECT_EQ(m.graph_captures, 32);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_grown[32/8,spread]"));
  EXPECT_EQ(m.samples_ms.size() % 32, 0u);
}

TEST(GraphTimer, CapturesGrowOnlyUnderTheAdaptivePolicyAndOnlyWhenTheySpread) {
  for (auto [policy, offset_ms, expected] :
       {std::tuple{SamplePolicy::kAdaptive, 0.0, 8}, {SamplePolicy::kFixed, 0.0008, 8}}) {
    FakeDeviceApi api;
    api.call_ms = {0.05};
    api.capture_offset_ms = {0, offset_ms};
    MeasureOptions options = adaptive_options(8);
    options.sampling.policy = policy;
    Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
    EXPECT_EQ(m.graph_captures, expected) << to_string(policy);
    EXPECT_TRUE(m.markers.empty());
  }
}

TEST(GraphTimer, AdaptiveRuleStopsOnTheReplaysNoiseNotOnTheCapturesSpread) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  // Every other graph 5% slower, replays exact: pooled, the samples' noise stays above the 0.5%
  // target however many replays are taken; leveled graph by graph it is nil from the first
  // batch, and the rule stops at its 5 ms floor: graphs of 25 calls replay in 0.25 ms, so one
  // round of the 8 (2 ms, the first graph's sizing replay among them), then 2 rounds.
  api.capture_offset_ms = {0, 0.0005};
  MeasureOptions options = adaptive_options(8);
  options.graph.capture_noise_target = 0;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(m.graph_captures, 8);
  EXPECT_EQ(m.samples_ms.size(), 24u);
}

TEST(GraphTimer, AdaptiveFloorIsWholeRoundsOfTheCapturesAtLeastOne) {
  // 2 ms calls: one call a graph, and one round of 8 graphs already spans the 5 ms floor.
  for (auto [captures, samples] : {std::pair{8, 8u}, {4, 8u}, {3, 9u}, {1, 10u}}) {
    FakeDeviceApi api;
    api.call_ms = {2.0};
    MeasureOptions options = adaptive_options(captures);
    options.graph.capture_noise_target = 0;
    Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
    EXPECT_EQ(m.samples_ms.size(), samples) << captures << " captures";
  }
}

TEST(GraphTimer, GrownCapturesAreSampledAsOftenAsTheFirstOnes) {
  FakeDeviceApi api = spread_captures(0.05);
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  ASSERT_EQ(m.graph_captures, 32);
  // 3 replays of each first graph (graphs of 5 calls: 0.25 ms a replay, the 5 ms floor), then 3
  // of each of the 8 and 16 added: the two levels alike.
  EXPECT_EQ(m.samples_ms.size(), 96u);
  EXPECT_EQ(std::count_if(m.samples_ms.begin(), m.samples_ms.end(),
                          [](double ms) { return ms > 0.0504; }),
            48);
  EXPECT_NEAR(m.median_ms, 0.0504, 1e-9);
}

TEST(GraphTimer, CapturesOfCallsUnderTwentyMicrosecondsGrowAgainstAThreeTimesLooserTarget) {
  FakeDeviceApi api = spread_captures(0.01);  // the same 1.6% as above, on 10 us calls
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(m.graph_captures, 8);
}

TEST(GraphTimer, CapturesGrowOnlyAsFarAsDeviceMemoryAllows) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  FakeDeviceApi api;
  api.call_ms = {0.05};
  api.capture_offset_ms = {0, 0.0008};
  // 100 GiB device, 90 free, 5 per graph, 5 in reserve: another graph needs more than 15 free,
  // so the 15th (leaving 15) is the last.
  api.memory_total_bytes = 100 * kGiB;
  api.memory_free_bytes = 90 * kGiB;
  api.capture_bytes = 5 * kGiB;
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_EQ(m.graph_captures, 15);
  EXPECT_THAT(m.markers, ::testing::Contains("captures_bounded[15/8,memory]"));
  EXPECT_THAT(m.markers, ::testing::Contains("captures_grown[15/8,spread]"));
}

TEST(GraphTimer, OneCaptureHasNoSpread) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  api.capture_offset_ms = {0.001, 0.005};
  MeasureOptions options = test_options();
  options.graph.captures = 1;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.captures, 1);
  EXPECT_EQ(m.graph_captures, 1);
  EXPECT_EQ(m.capture_spread, 0);
  EXPECT_NEAR(m.median_ms, 0.011, 1e-9);
}

TEST(GraphTimer, SelftestDelayMakesEachCallThatFractionOfItsOwnTimeSlower) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  MeasureOptions options = test_options();
  options.graph.captures = 1;
  options.selftest_delay = 0.05;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [&] { api.count_call(); });
  EXPECT_EQ(m.timer_used, Timer::kGraph);
  EXPECT_EQ(m.calls_per_sample, 200);
  // One delay per graph, sized from the undelayed median: 200 calls x 5% of 10 us.
  ASSERT_FALSE(api.delays_us.empty());
  EXPECT_NEAR(api.delays_us.back(), 200 * 0.5, 1e-9);
  EXPECT_NEAR(m.latency_ms, 0.0105, 1e-12);
  ASSERT_TRUE(m.selftest_delay_us.has_value());
  EXPECT_NEAR(*m.selftest_delay_us, 0.5, 1e-9);
  ASSERT_TRUE(m.selftest_slowdown.has_value());
  EXPECT_NEAR(*m.selftest_slowdown, 0.05, 1e-9);
}

TEST(GraphTimer, NoSelftestDelayUnlessAsked) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  Measurement m = measure(api, plan_for(Timer::kGraph), test_options(), [&] { api.count_call(); });
  EXPECT_TRUE(api.delays_us.empty());
  EXPECT_FALSE(m.selftest_delay_us.has_value());
  EXPECT_NEAR(m.latency_ms, 0.01, 1e-12);
}

// One round of 8 graphs of 25 calls (0.25 ms replays under a 2 ms floor) on a device that `slow`
// makes read some replays slower, measured with `fix` off and on. Off, the slow replays read as a
// slower row (`slow_median_ms`) and as a spread between the captures, which grows them; on, every
// graph reads the call and the 8 captures stay.
void expect_one_round_reads_the_call_only_with(const std::function<void(FakeDeviceApi&)>& slow,
                                               bool GraphSettings::*fix, double slow_median_ms) {
  for (bool on : {false, true}) {
    FakeDeviceApi api;
    api.call_ms = {0.01};
    slow(api);
    MeasureOptions options = adaptive_options(8);
    options.sampling.min_time_s = 0.002;
    options.graph.*fix = on;
    Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
    EXPECT_EQ(api.last_calls_per_graph, 25);
    EXPECT_EQ(std::count(api.log.begin(), api.log.end(), "upload"),
              options.graph.upload ? api.captures : 0);
    if (on) {
      EXPECT_EQ(m.graph_captures, 8);
      EXPECT_EQ(m.samples_ms.size(), 8u);
      EXPECT_NEAR(m.median_ms, 0.01, 1e-12);
    } else {
      EXPECT_GT(m.graph_captures, 8);
      EXPECT_NEAR(m.median_ms, slow_median_ms, 1e-12);
    }
  }
}

// Without an upload, graphs 2-8 are timed at their first launch, the first graph's having been the
// untimed lead of its sizing replay.
TEST(GraphTimer, UploadedGraphsReadTheirFirstRoundLikeTheRest) {
  expect_one_round_reads_the_call_only_with(
      [](FakeDeviceApi& api) { api.graph_first_launch_ms = 0.05; },  // 2 us a call
      &GraphSettings::upload, 0.012);
}

TEST(GraphTimer, EachUploadFollowsItsCaptureBeforeAnyReplay) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  MeasureOptions options = adaptive_options(4);
  options.graph.upload = true;
  measure(api, plan_for(Timer::kGraph), options, [] {});
  ASSERT_EQ(api.captures, 4);
  for (auto it = api.log.begin(); it != api.log.end(); ++it) {
    if (*it != "capture") continue;
    auto next = std::find_if(it + 1, api.log.end(), [](const std::string& entry) {
      return entry == "upload" || entry == "prime" || entry == "replay" || entry == "capture";
    });
    ASSERT_NE(next, api.log.end());
    EXPECT_EQ(*next, "upload");
  }
}

// A replay 10% slower when it follows another graph's: the batch's lead warms the first graph
// only, so graphs 2-8 read slower than it.
TEST(GraphTimer, GraphsWarmedEachReadTheirOwnCacheNotTheGraphBefore) {
  expect_one_round_reads_the_call_only_with(
      [](FakeDeviceApi& api) { api.graph_switch_ms = 0.025; },  // 1 us a call
      &GraphSettings::warm_each, 0.011);
}

// Warming is for hot rows of graphs under a millisecond: a cold row flushes before each sample on
// purpose, and a longer graph would spend a whole replay on each warming.
TEST(GraphTimer, WarmEachLeavesColdRowsAndLongGraphsAsTheyAre) {
  auto primes = [](double call_ms, CacheState cache, bool warm_each) {
    FakeDeviceApi api;
    api.call_ms = {call_ms};
    MeasureOptions options = adaptive_options(8);
    options.cache = cache;
    options.graph.warm_each = warm_each;
    measure(api, plan_for(Timer::kGraph), options, [] {});
    return std::count(api.log.begin(), api.log.end(), "prime");
  };
  EXPECT_GT(primes(0.01, CacheState::kHot, true), primes(0.01, CacheState::kHot, false));
  EXPECT_EQ(primes(0.01, CacheState::kCold, true), primes(0.01, CacheState::kCold, false));
  EXPECT_EQ(primes(2.0, CacheState::kHot, true), primes(2.0, CacheState::kHot, false));
}

TEST(GraphTimer, TimedReplaysQueueBehindAnUntimedReplay) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  api.graph_launch_gap_ms = 0.05;  // a quarter of a 2 ms replay would leak into a lone replay
  Measurement m = measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  EXPECT_NEAR(m.latency_ms, 0.01, 1e-12);
  EXPECT_NEAR(m.max_ms, 0.01, 1e-12);
  // Every batch of timed replays (the sizing replay included, which is a sample) starts with an
  // untimed one.
  auto capture = std::find(api.log.begin(), api.log.end(), "capture");
  ASSERT_NE(capture, api.log.end());
  auto first_prime = std::find(capture, api.log.end(), "prime");
  ASSERT_NE(first_prime, api.log.end());
  EXPECT_EQ(*(first_prime + 1), "begin");
  EXPECT_EQ(std::count(first_prime, api.log.end(), "replay"),
            static_cast<long>(m.samples_ms.size()));
  EXPECT_GE(std::count(first_prime, api.log.end(), "prime"), 2);  // the probe and a batch
}

TEST(GraphTimer, GraphsReplayInTurnBehindOneUntimedReplayABatch) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  Measurement m = measure(api, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  ASSERT_EQ(m.graph_captures, 8);
  // Two batches (8 and 16 samples), and no replay before them under the adaptive rule, whose
  // first batch is its minimum whatever a replay costs: one untimed replay each. The first
  // graph's sizing replay, before the other captures, is its sample of the first batch.
  EXPECT_EQ(m.samples_ms.size(), 24u);
  auto last_capture = std::find(api.log.rbegin(), api.log.rend(), "capture").base();
  EXPECT_EQ(std::count(last_capture, api.log.end(), "prime"), 2);
  EXPECT_EQ(std::count(last_capture, api.log.end(), "replay"), 23);  // the timed ones
}

TEST(GraphTimer, TheReplayThatSizedTheFirstGraphIsItsFirstSample) {
  FakeDeviceApi api;
  api.call_ms = {0.01};
  api.capture_offset_ms = {0.002, 0, 0, 0, 0, 0, 0, 0};  // the first graph replays slower
  MeasureOptions options = adaptive_options(8);
  options.graph.capture_noise_target = 0;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  ASSERT_EQ(m.graph_captures, 8);
  // As many samples of the first graph as of every other, the sizing replay among them, and no
  // timed replay that is not a sample.
  EXPECT_EQ(
      std::count_if(m.samples_ms.begin(), m.samples_ms.end(), [](double ms) { return ms > 0.011; }),
      static_cast<long>(m.samples_ms.size() / 8));
  EXPECT_EQ(std::count(api.log.begin(), api.log.end(), "replay"),
            static_cast<long>(m.samples_ms.size()));
}

TEST(GraphTimer, LongReplaysLeadWithADeviceDelayWhereTheBackendQueuesOne) {
  TimerPlan plan = plan_for(Timer::kGraph);
  plan.device_delay = true;
  FakeDeviceApi api;
  api.call_ms = {2.0};  // one call a graph, 2 ms a replay
  Measurement m = measure(api, plan, adaptive_options(8), [] {});
  EXPECT_NEAR(m.median_ms, 2.0, 1e-9);
  // The sizing replay's lead and each batch's: a delay as long as the shortest graph's replay,
  // never a replay of its own.
  EXPECT_EQ(std::count(api.log.begin(), api.log.end(), "prime"), 0);
  ASSERT_GE(api.delays_us.size(), 2u);
  for (double us : api.delays_us) EXPECT_NEAR(us, 250, 1e-9);
  auto capture = std::find(api.log.begin(), api.log.end(), "capture");
  EXPECT_EQ(std::count(capture, api.log.end(), "replay"),
            static_cast<long>(m.samples_ms.size()));  // the sizing one is a sample

  // Without a device delay, or for a graph under a millisecond, the lead is an untimed replay.
  FakeDeviceApi no_delay;
  no_delay.call_ms = {2.0};
  measure(no_delay, plan_for(Timer::kGraph), adaptive_options(8), [] {});
  EXPECT_GE(std::count(no_delay.log.begin(), no_delay.log.end(), "prime"), 2);
  EXPECT_TRUE(no_delay.delays_us.empty());
  FakeDeviceApi short_graphs;
  short_graphs.call_ms = {0.01};
  measure(short_graphs, plan, adaptive_options(8), [] {});
  EXPECT_GE(std::count(short_graphs.log.begin(), short_graphs.log.end(), "prime"), 2);
  EXPECT_TRUE(short_graphs.delays_us.empty());
}

TEST(GraphTimer, WarmsUpBeforeCapture) {
  FakeDeviceApi api;
  measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  auto capture = std::find(api.log.begin(), api.log.end(), "capture");
  ASSERT_NE(capture, api.log.end());
  EXPECT_GE(std::count(api.log.begin(), capture, "begin"), 3);  // warmup calls, timed
}

TEST(GraphTimer, FallsBackToDirectWhenCaptureRefused) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("capture", "operation not permitted when stream is capturing");
  MeasureOptions options = test_options();
  options.repeat = 2;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(m.timer_used, Timer::kDirect);
  EXPECT_EQ(m.repeat, 2);
  ASSERT_FALSE(m.markers.empty());
  EXPECT_EQ(m.markers.front(), "fallback[phase=capture,repeat=2]");
}

TEST(GraphTimer, FallbackMarkerNamesWarmupPhaseFromTheDevice) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("warmup", "operation not permitted when stream is capturing");
  Measurement m = measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  EXPECT_EQ(m.markers.front(), "fallback[phase=warmup,repeat=1]");
}

TEST(GraphTimer, FallsBackWithReplayPhaseWhenReplayRefused) {
  FakeDeviceApi api;
  api.replay_error = "operation not permitted when stream is capturing";
  Measurement m = measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  EXPECT_EQ(m.timer_used, Timer::kDirect);
  EXPECT_EQ(m.markers.front(), "fallback[phase=replay,repeat=1]");
}

TEST(GraphTimer, FatalVerdictThrowsDeviceFatalNeverALatency) {
  FakeDeviceApi api;
  api.capture_error =
      DeviceError("capture", "CUDA error: an illegal memory access was encountered");
  try {
    measure(api, plan_for(Timer::kGraph), test_options(), [] {});
    FAIL() << "a fatal verdict must not produce a measurement";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeviceFatal);
    EXPECT_NE(std::string(e.what()).find("capture"), std::string::npos);
  }
}

TEST(GraphTimer, PoisonedVerdictStopsTheOpWithCapturePoisoned) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("capture", "capture unjoined");
  try {
    measure(api, plan_for(Timer::kGraph), test_options(), [] {});
    FAIL() << "a poisoned capture must stop the op";
  } catch (const CapturePoisonedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
    EXPECT_EQ(std::string(e.what()).rfind("BENCHMARK_CAPTURE_POISONED mm", 0), 0u);
  }
}

TEST(GraphTimer, RefusalThatLeavesDeviceUnhealthyIsPoisoned) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("capture", "operation not permitted when stream is capturing");
  api.healthy_after_failure = false;
  EXPECT_THROW(measure(api, plan_for(Timer::kGraph), test_options(), [] {}), CapturePoisonedError);
  EXPECT_TRUE(logged(api, "healthy"));
}

TEST(GraphTimer, UnknownCaptureFailureIsAnOpFailure) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("capture", "something nobody has seen");
  try {
    measure(api, plan_for(Timer::kGraph), test_options(), [] {});
    FAIL() << "expected an op failure";
  } catch (const CapturePoisonedError&) {
    FAIL() << "a healthy device is not poisoned";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
  }
}

TEST(GraphTimer, DenyListSkipsTheCaptureAttemptWithMarker) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.capture_denied = true;
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.captures, 0);
  EXPECT_EQ(m.timer_used, Timer::kDirect);
  EXPECT_EQ(m.markers.front(), "fallback[phase=denied,repeat=1]");
}

TEST(GraphTimer, CapturesUnderRngGuardAndRestoresIt) {
  FakeDeviceApi api;
  measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  // One guard per capture, each released before the next is taken.
  EXPECT_GT(api.captures, 0);
  EXPECT_EQ(api.rng_guards_taken, api.captures);
  EXPECT_TRUE(api.rng_guard_held_during_capture);
  EXPECT_FALSE(api.rng_guard_held);
}

TEST(GraphTimer, RestoresRngGuardWhenCaptureFails) {
  FakeDeviceApi api;
  api.capture_error = DeviceError("capture", "operation not permitted when stream is capturing");
  measure(api, plan_for(Timer::kGraph), test_options(), [] {});
  EXPECT_TRUE(api.rng_guard_held_during_capture);
  EXPECT_FALSE(api.rng_guard_held);
  // Restored before the health probe and the fallback ran.
  auto restore = std::find(api.log.begin(), api.log.end(), "rng_restore");
  auto probe = std::find(api.log.begin(), api.log.end(), "healthy");
  EXPECT_LT(restore, probe);
}

TEST(GraphTimer, SkipsRngGuardWhenBackendHasNoGenerators) {
  FakeDeviceApi api;
  TimerPlan plan = plan_for(Timer::kGraph);
  plan.rng_guard = false;
  Measurement m = measure(api, plan, test_options(), [] {});
  EXPECT_EQ(m.timer_used, Timer::kGraph);
  EXPECT_EQ(api.rng_guards_taken, 0);
  EXPECT_FALSE(api.rng_guard_held_during_capture);
}

TEST(GraphTimer, ColdCacheCapturesOneCallAndFlushesBeforeEachReplay) {
  FakeDeviceApi api;
  MeasureOptions options = test_options();
  options.cache = CacheState::kCold;
  api.call_ms = {0.01};
  Measurement m = measure(api, plan_for(Timer::kGraph), options, [] {});
  EXPECT_EQ(api.last_calls_per_graph, 1);
  int replays = 0;
  for (size_t i = 0; i < api.log.size(); ++i) {
    if (api.log[i] != "replay") continue;
    ++replays;
    ASSERT_GE(i, 2u);
    EXPECT_EQ(api.log[i - 2], "flush");  // flush, begin, replay
  }
  EXPECT_EQ(replays, static_cast<int>(m.samples_ms.size()));  // the first replay is a sample
}

}  // namespace
}  // namespace caliber
