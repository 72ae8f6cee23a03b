#include "timing/graph_timer.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "timing/failure_verdicts.h"
#include "timing/sampler.h"

namespace caliber {
namespace {

int calls_per_graph(const TimerContext& ctx, double per_call_ms) {
  if (ctx.options.cache == CacheState::kCold) return 1;
  const GraphSettings& graph = ctx.options.graph;
  if (per_call_ms <= 0) return graph.max_calls_per_graph;
  double calls = std::ceil(graph.replay_target_ms / per_call_ms);
  return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(graph.max_calls_per_graph)));
}

std::unique_ptr<CapturedGraph> capture(const TimerContext& ctx, const Call& call, int calls) {
  // The guard restores the generator when this scope ends, whether the capture succeeded or not;
  // a successful graph keeps the throwaway state it captured with.
  std::unique_ptr<ScopedRngGuard> rng_guard;
  if (ctx.plan.rng_guard) rng_guard = ctx.api.rng_guard();
  return ctx.api.capture(call, calls);
}

Measurement measure_graph(const TimerContext& ctx, CapturedGraph& graph, int calls,
                          const Call& before) {
  // Also the first replay's failure is a replay verdict; its duration sizes the batches.
  double first_replay_ms = graph.time_replays(1, before).front();
  return take_measurement(ctx, Timer::kGraph, /*repeats=*/1, first_replay_ms, [&](int n) {
    std::vector<double> samples = graph.time_replays(n, before);
    for (double& sample : samples) sample /= calls;
    return samples;
  });
}

// --selftest-delay: the same calls captured again with one device delay behind them, sized from
// the undelayed median, so each call is `selftest_delay` of its own time slower. One delay node
// per graph rather than per call keeps its launch cost spread over every call of the replay.
Measurement measure_delayed(const TimerContext& ctx, const Measurement& undelayed, int calls,
                            const Call& before) {
  const double delay_us = ctx.options.selftest_delay * undelayed.median_ms * 1e3;
  const Call& call = ctx.call;
  DeviceApi& api = ctx.api;
  Call delayed = [&call, &api, calls, delay_us] {
    for (int i = 0; i < calls; ++i) call();
    api.delay(delay_us * calls);
  };
  std::unique_ptr<CapturedGraph> graph = capture(ctx, delayed, 1);
  Measurement m = measure_graph(ctx, *graph, calls, before);
  m.selftest_delay_us = delay_us;
  if (undelayed.median_ms > 0) m.selftest_slowdown = m.median_ms / undelayed.median_ms - 1;
  return m;
}

}  // namespace

TimerResult time_graph(const TimerContext& ctx) {
  if (ctx.options.capture_denied) return TimerResult::fall_back("denied");
  Call before = ctx.before_each();

  Warmup warmup;
  try {
    warmup = warm_up(ctx.api, ctx.call, ctx.options.graph.warmup_calls, ctx.options.graph.warmup_ms,
                     before);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "warmup", e);
  }

  int calls = calls_per_graph(ctx, warmup.per_call_ms);
  std::unique_ptr<CapturedGraph> graph;
  const double capture_start_ms = ctx.api.host_now_ms();
  try {
    graph = capture(ctx, ctx.call, calls);
  } catch (const DeviceError& e) {
    return graph_failure_verdict(ctx, e.phase(), e);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "capture", e);
  }
  const double capture_end_ms = ctx.api.host_now_ms();

  try {
    Measurement m = measure_graph(ctx, *graph, calls, before);
    if (ctx.options.selftest_delay > 0) m = measure_delayed(ctx, m, calls, before);
    record_warmup(warmup, m);
    m.capture_ms = capture_end_ms - capture_start_ms;
    m.calls_per_sample = calls;
    return TimerResult::measured(std::move(m));
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "replay", e);
  }
}

}  // namespace caliber
