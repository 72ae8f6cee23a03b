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

std::unique_ptr<CapturedGraph> capture(const TimerContext& ctx, int calls) {
  // The guard restores the generator when this scope ends, whether the capture succeeded or not;
  // a successful graph keeps the throwaway state it captured with.
  std::unique_ptr<ScopedRngGuard> rng_guard;
  if (ctx.plan.rng_guard) rng_guard = ctx.api.rng_guard();
  return ctx.api.capture(ctx.call, calls);
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
  try {
    graph = capture(ctx, calls);
  } catch (const DeviceError& e) {
    return graph_failure_verdict(ctx, e.phase(), e);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "capture", e);
  }

  auto replay = [&] {
    if (before) before();
    return graph->replay_ms();
  };
  try {
    double first_replay_ms = replay();  // also the first replay's failure is a replay verdict
    Measurement m =
        take_measurement(ctx, Timer::kGraph, /*repeats=*/1, first_replay_ms, [&](int n) {
          std::vector<double> samples;
          samples.reserve(n);
          for (int i = 0; i < n; ++i) samples.push_back(replay() / calls);
          return samples;
        });
    record_warmup(warmup, m);
    m.calls_per_sample = calls;
    return TimerResult::measured(std::move(m));
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "replay", e);
  }
}

}  // namespace caliber
