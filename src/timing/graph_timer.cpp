#include "timing/graph_timer.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/stats.h"
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

using Graphs = std::vector<std::unique_ptr<CapturedGraph>>;

// Every graph is kept until the measurement ends, so that each capture lays out in memory of its
// own rather than in what the previous graph gave back.
Graphs capture_all(const TimerContext& ctx, const Call& call, int calls) {
  Graphs graphs;
  for (int i = 0; i < std::max(1, ctx.options.graph.captures); ++i) {
    graphs.push_back(capture(ctx, call, calls));
  }
  return graphs;
}

// Each batch of n samples takes ceil(n / graphs) replays of every graph, so that each capture
// weighs the same in the median whatever the stopping rule asks for.
Measurement measure_graphs(const TimerContext& ctx, Graphs& graphs, int calls, const Call& before) {
  // Also the first replay's failure is a replay verdict; its duration sizes the batches.
  double first_replay_ms = graphs.front()->time_replays(1, before).front();
  const int count = static_cast<int>(graphs.size());
  std::vector<std::vector<double>> per_graph(graphs.size());
  Measurement m = take_measurement(ctx, Timer::kGraph, /*repeats=*/1, first_replay_ms, [&](int n) {
    std::vector<double> samples;
    const int each = (n + count - 1) / count;
    for (int g = 0; g < count; ++g) {
      for (double sample : graphs[g]->time_replays(each, before)) {
        samples.push_back(sample / calls);
        per_graph[g].push_back(sample / calls);
      }
    }
    return samples;
  });
  m.graph_captures = count;
  if (count > 1 && m.median_ms > 0) {
    std::vector<double> medians;
    for (const auto& samples : per_graph) medians.push_back(median(samples));
    auto [low, high] = std::minmax_element(medians.begin(), medians.end());
    m.capture_spread = (*high - *low) / m.median_ms;
  }
  return m;
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
  Graphs graphs = capture_all(ctx, delayed, 1);
  Measurement m = measure_graphs(ctx, graphs, calls, before);
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
  Graphs graphs;
  const double capture_start_ms = ctx.api.host_now_ms();
  try {
    graphs = capture_all(ctx, ctx.call, calls);
  } catch (const DeviceError& e) {
    return graph_failure_verdict(ctx, e.phase(), e);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "capture", e);
  }
  const double capture_end_ms = ctx.api.host_now_ms();

  try {
    Measurement m = measure_graphs(ctx, graphs, calls, before);
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
