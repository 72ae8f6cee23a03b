#include "timing/graph_timer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "core/stats.h"
#include "timing/failure_verdicts.h"
#include "timing/markers.h"
#include "timing/sampler.h"
#include "timing/stopping_rule.h"

namespace caliber {
namespace {

// K captures share the replay target, so that K graphs capture and replay what one graph of the
// whole target would: each holds about replay_target_ms / K of calls, but no less than
// min_replay_ms, below which the device-side start of a replay weighs in every call's share.
int calls_per_graph(const TimerContext& ctx, double per_call_ms) {
  if (ctx.options.cache == CacheState::kCold) return 1;
  const GraphSettings& graph = ctx.options.graph;
  if (per_call_ms <= 0) return graph.max_calls_per_graph;
  const double target_ms =
      std::max(graph.min_replay_ms, graph.replay_target_ms / std::max(1, graph.captures));
  double calls = std::ceil(target_ms / per_call_ms);
  return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(graph.max_calls_per_graph)));
}

std::unique_ptr<CapturedGraph> capture(const TimerContext& ctx, const Call& call, int calls) {
  // The guard restores the generator when this scope ends, whether the capture succeeded or not;
  // a successful graph keeps the throwaway state it captured with.
  std::unique_ptr<ScopedRngGuard> rng_guard;
  if (ctx.plan.rng_guard) rng_guard = ctx.api.rng_guard();
  std::unique_ptr<CapturedGraph> graph = ctx.api.capture(call, calls);
  if (ctx.options.graph.upload) graph->upload();
  return graph;
}

using Graphs = std::vector<std::unique_ptr<CapturedGraph>>;

// What keeps the device busy while the host queues a batch of timed replays (device_api.h): an
// untimed replay of the graph, or, for a graph of a millisecond or more on a backend that queues
// device delays, a delay as long as the shortest graph's replay (min_replay_ms). The host path
// that the lead hides, a graph's launch behind a flush, takes tens of microseconds; a replay of a
// call of 1-10 ms as the lead cost a whole call a batch, and rows of 1 ms or more spent about
// 50 s of the fourteenth session's whole-corpus screen on their leads.
constexpr double kDelayLeadFromMs = 1.0;

void lead(const TimerContext& ctx, CapturedGraph& graph, double replay_ms) {
  if (ctx.plan.device_delay && replay_ms >= kDelayLeadFromMs) {
    ctx.api.delay(ctx.options.graph.min_replay_ms * 1e3);
    return;
  }
  graph.replay_untimed();
}

// One timed replay behind its lead; `replay_ms` is what the replay is expected to take.
double replay_once(const TimerContext& ctx, CapturedGraph& graph, const Call& before,
                   double replay_ms) {
  lead(ctx, graph, replay_ms);
  graph.queue_timed(1, before);
  return graph.collect_timed().front();
}

// Another graph is captured only while the device keeps, besides a reserve, twice what the first
// graph took from it (the second half for what a capture holds only while it runs).
bool room_for_another(const DeviceMemory& now, uint64_t footprint) {
  const uint64_t reserve = std::max<uint64_t>(now.total_bytes / 20, uint64_t{1} << 30);
  return now.free_bytes > 2 * footprint + reserve;
}

struct Captures {
  Graphs graphs;
  bool bounded = false;  // fewer than wanted: another would not have fitted in device memory
  bool memory_known = false;
  uint64_t footprint = 0;  // what the first graph took from the device's free memory
  double capture_ms = 0;   // host time spent capturing, growth included
};

// Every graph is kept until the measurement ends, so that each capture lays out in memory of its
// own rather than in what the previous graph gave back. A backend that cannot read its memory
// gets every capture asked for.
Captures capture_first(const TimerContext& ctx, const Call& call, int calls, bool more_to_come) {
  Captures out;
  std::optional<DeviceMemory> before = more_to_come ? ctx.api.memory() : std::nullopt;
  // The previous case's graphs may still hold their pools: torch hands them back only when an
  // allocation would fail, which would hide the first graph's footprint in the free memory.
  if (before && before->free_bytes < before->total_bytes / 2) {
    ctx.api.release_cached_memory();
    before = ctx.api.memory();
  }
  // Plain copies: the optional itself trips GCC's maybe-uninitialized across the capture.
  out.memory_known = before.has_value();
  const uint64_t free_before = out.memory_known ? before->free_bytes : 0;
  const double start_ms = ctx.api.host_now_ms();
  out.graphs.push_back(capture(ctx, call, calls));
  out.capture_ms += ctx.api.host_now_ms() - start_ms;
  if (out.memory_known) {
    const std::optional<DeviceMemory> after = ctx.api.memory();
    if (after && free_before > after->free_bytes) out.footprint = free_before - after->free_bytes;
  }
  return out;
}

// False, and `bounded` set, when another graph would not fit.
bool capture_another(const TimerContext& ctx, const Call& call, int calls, Captures& captures) {
  std::optional<DeviceMemory> now = captures.memory_known ? ctx.api.memory() : std::nullopt;
  if (now && !room_for_another(*now, captures.footprint)) {
    captures.bounded = true;
    return false;
  }
  const double start_ms = ctx.api.host_now_ms();
  captures.graphs.push_back(capture(ctx, call, calls));
  captures.capture_ms += ctx.api.host_now_ms() - start_ms;
  return true;
}

Captures capture_all(const TimerContext& ctx, const Call& call, int calls, int asked) {
  asked = std::max(1, asked);
  Captures out = capture_first(ctx, call, calls, asked > 1);
  while (static_cast<int>(out.graphs.size()) < asked && capture_another(ctx, call, calls, out)) {
  }
  return out;
}

// The captures of the op's own call, sized from the device. The warmup times each call between
// events as the host launches it, so for an op shorter than its launch it reads the launch
// (8x the device time for a 2.6 us mm): graphs sized from it hold too few calls, and each
// replay's own start (about 1.5 us on an H200) then weighs in every call's share by an amount
// that moves with the warmup's reading from one measurement to the next. One replay of the
// first graph reads the device's time per call; a graph off its size by more than a quarter is
// captured again at the size that reading gives.
struct SizedCaptures {
  Captures captures;
  int calls = 0;
  double replay_ms = 0;  // one replay of the first graph of `calls` calls, as measured
  bool no_device_work = false;
  int asked = 1;              // the captures wanted, after the ceiling below
  bool time_bounded = false;  // fewer than `captures`: one round of them would pass the ceiling
};

// Under the adaptive policy one round of the captures, one replay each, may not pass the policy's
// time ceiling on its own, as long as a verdict keeps the samples it needs: rows of a second a
// call replayed 8 graphs at least, 8 s a case. Captures of calls that long differ by a few 0.1%
// at most (0.08% median in the 321-op screen for rows of 10-100 ms), far inside what fewer of
// them can still average.
int captures_within_ceiling(const TimerContext& ctx, double replay_ms, int asked) {
  if (ctx.options.sampling.policy != SamplePolicy::kAdaptive || !(replay_ms > 0)) return asked;
  const double ceiling_ms = ctx.options.sampling.max_time_s * 1e3;
  if (asked * replay_ms <= ceiling_ms) return asked;
  const int fitting = static_cast<int>(ceiling_ms / replay_ms);
  return std::min(asked, std::max(StoppingRule::kFewestSamples, fitting));
}

// A kernel, memset or copy node takes on the order of a microsecond of a replay on the devices
// caliber runs on; a call whose share is a tenth of that launched none (an allocation, a view,
// a metadata change). Sized from such a reading, its graphs would hold the most calls a graph may,
// and a screen spent 210 ms a case capturing calls of host work that replay in nothing.
constexpr double kNoDeviceWorkMs = 1e-4;
// A replay also takes its own start, about 1.5 us on an H200 and bounded here, which a graph of
// few calls would otherwise share out as work: 25 calls of sum_backward's view read 0.12 us a
// call and were then sized to 500 calls and 32 graphs, 0.7 s of capture a case. Below
// kMinCallsJudged calls a real call's share could hide in the allowance.
constexpr double kReplayStartMs = 0.005;
constexpr int kMinCallsJudged = 16;

bool launched_nothing(double replay_ms, int calls) {
  const double own_start_ms = calls >= kMinCallsJudged ? kReplayStartMs : 0;
  return (replay_ms - own_start_ms) / calls < kNoDeviceWorkMs;
}

SizedCaptures capture_sized(const TimerContext& ctx, const Call& before, int estimated_calls,
                            double estimated_call_ms) {
  const int asked = std::max(1, ctx.options.graph.captures);
  SizedCaptures out;
  out.calls = estimated_calls;
  out.captures = capture_first(ctx, ctx.call, out.calls, asked > 1);
  out.replay_ms =
      replay_once(ctx, *out.captures.graphs.front(), before, estimated_call_ms * out.calls);
  out.no_device_work = launched_nothing(out.replay_ms, out.calls);
  if (ctx.options.cache != CacheState::kCold && out.replay_ms > 0 && !out.no_device_work) {
    const int sized = calls_per_graph(ctx, out.replay_ms / out.calls);
    if (4 * sized > 5 * out.calls || 5 * sized < 4 * out.calls) {
      const double capture_ms = out.captures.capture_ms;
      const double resized_replay_ms = out.replay_ms / out.calls * sized;
      out.captures.graphs.clear();  // its memory goes back before the footprint is read again
      out.captures = capture_first(ctx, ctx.call, sized, asked > 1);
      out.captures.capture_ms += capture_ms;
      out.calls = sized;
      // Read again, not scaled: a view's first replay can be mostly the replay's own start
      // (sum_backward and unsqueeze_ read 0.0000 ms a call at 500 calls, after a first replay of
      // more than the allowance), and the graph it was resized to shows that it launches nothing.
      out.replay_ms = replay_once(ctx, *out.captures.graphs.front(), before, resized_replay_ms);
      out.no_device_work = launched_nothing(out.replay_ms, out.calls);
    }
  }
  out.asked = captures_within_ceiling(ctx, out.replay_ms, asked);
  out.time_bounded = out.asked < asked;
  while (static_cast<int>(out.captures.graphs.size()) < out.asked &&
         capture_another(ctx, ctx.call, out.calls, out.captures)) {
  }
  return out;
}

// The samples of every graph so far, graph by graph.
class GraphSamples {
 public:
  // `lead` keeps the device busy ahead of each batch (lead() above); `warm_each` replays every
  // graph but the led one untimed right before its timed replays (GraphSettings::warm_each).
  GraphSamples(int calls, std::function<void(CapturedGraph&)> lead, bool warm_each)
      : calls_(calls), lead_(std::move(lead)), warm_each_(warm_each) {}

  // A replay of the first graph timed before sampling began (the one that sized it), behind a
  // lead as a batch's are: it stands for that graph's first replay of the first batch.
  void already_timed(double replay_ms) { timed_ahead_ms_ = replay_ms; }

  // `each` replays of the graphs from `first` on, as per-call samples. All are queued before any
  // is waited for, behind one lead: each graph's replays start as the previous graph's end, and
  // the device idles (and needs the lead) once a batch.
  std::vector<double> take(Graphs& graphs, size_t first, int each, const Call& before) {
    if (per_graph_.size() < graphs.size()) per_graph_.resize(graphs.size());
    std::optional<double> ahead_ms;
    if (first == 0 && each > 0) ahead_ms = std::exchange(timed_ahead_ms_, std::nullopt);
    if (!ahead_ms || each > 1 || graphs.size() > 1) lead_(*graphs[first]);
    for (size_t g = first; g < graphs.size(); ++g) {
      if (warm_each_ && g != first) graphs[g]->replay_untimed();
      graphs[g]->queue_timed(g == 0 && ahead_ms ? each - 1 : each, before);
    }
    std::vector<double> samples;
    auto keep = [&](size_t g, double replay_ms) {
      samples.push_back(replay_ms / calls_);
      per_graph_[g].push_back(replay_ms / calls_);
    };
    if (ahead_ms) keep(0, *ahead_ms);
    for (size_t g = first; g < graphs.size(); ++g) {
      for (double replay_ms : graphs[g]->collect_timed()) keep(g, replay_ms);
    }
    return samples;
  }

  std::vector<double> medians() const {
    std::vector<double> out;
    for (const auto& samples : per_graph_) out.push_back(median(samples));
    return out;
  }

  // Each graph's samples scaled to the median of the graphs' medians: what is left is the
  // replays' own noise, which the stopping rule judges; the captures' spread is judged apart.
  std::vector<double> leveled() const {
    std::vector<double> out;
    if (per_graph_.empty()) return out;
    const double level = median(medians());
    for (const auto& samples : per_graph_) {
      const double own = median(samples);
      for (double sample : samples) out.push_back(own > 0 ? sample * level / own : sample);
    }
    return out;
  }

  size_t replays_of_first() const { return per_graph_.empty() ? 0 : per_graph_.front().size(); }

 private:
  int calls_;
  std::function<void(CapturedGraph&)> lead_;
  bool warm_each_;
  std::optional<double> timed_ahead_ms_;
  std::vector<std::vector<double>> per_graph_;
};

// Under the adaptive policy the captures are sampled adaptively too: their spread, not the
// replays', moves the median from one measurement to the next, so more replays cannot narrow it
// and more graphs can. While the standard error of the mean of the graphs' medians is above the
// target, the count doubles, up to max_captures and what device memory allows. The target is
// three times looser below 20 us, as the timer validation's CV limits are.
bool captures_too_spread(const TimerContext& ctx, const Captures& captures,
                         const std::vector<double>& graph_medians) {
  const GraphSettings& graph = ctx.options.graph;
  if (ctx.options.sampling.policy != SamplePolicy::kAdaptive) return false;
  if (graph.capture_noise_target <= 0 || graph_medians.size() < 2 || captures.bounded) return false;
  if (static_cast<int>(captures.graphs.size()) >= graph.max_captures) return false;
  const double mean_ms = mean(graph_medians);
  if (!(mean_ms > 0)) return false;
  const double target = graph.capture_noise_target * (mean_ms * 1e3 < 20 ? 3 : 1);
  const double standard_error = stddev(graph_medians) / std::sqrt(graph_medians.size()) / mean_ms;
  return standard_error > target;
}

// Each batch of n samples takes ceil(n / graphs) replays of every graph, so that each capture
// weighs the same in the median whatever the stopping rule asks for; the adaptive rule judges
// the replays' noise with the captures leveled. Graphs added for their spread (`grow`: the call
// to capture; null for exactly the captures given) are then sampled as often as the first ones.
//
// The adaptive floor of min_samples is counted in whole rounds of the graphs, rounded down but
// at least one: a round holds one replay of each capture, and a capture's replays agree to a few
// 0.01%, so a second round of a millisecond-long graph adds its time and not its information.
// A call without device work is not sampled past the floor: its reading is nothing.
struct GraphSampling {
  int asked = 1;                   // the captures wanted, for the markers
  int calls = 1;                   // calls a graph holds
  const Call* grow = nullptr;      // what more graphs capture; null: exactly the captures given
  double replay_estimate_ms = 0;   // one replay's duration; 0: timed here first
  std::optional<double> timed_ms;  // the first graph's replay already timed (its sizing)
  bool no_device_work = false;
  bool one_round = false;
};

Measurement measure_graphs(const TimerContext& outer, Captures& captures,
                           const GraphSampling& sampling, const Call& before) {
  const int asked = sampling.asked;
  const int calls = sampling.calls;
  const Call* grow = sampling.grow;
  const bool no_device_work = sampling.no_device_work;
  const bool one_round = sampling.one_round;
  Graphs& graphs = captures.graphs;
  MeasureOptions options = outer.options;
  const int round = static_cast<int>(graphs.size());
  options.sampling.min_samples =
      one_round ? round : std::max(round, options.sampling.min_samples / round * round);
  if (no_device_work && options.sampling.policy == SamplePolicy::kAdaptive) {
    options.sampling.noise_target = std::numeric_limits<double>::infinity();
  }
  const TimerContext ctx = outer.with_options(options);
  // A replay's duration sizes the fixed policy's count (the adaptive rule's first batch is its
  // minimum whatever the cost).
  double first_replay_ms = sampling.replay_estimate_ms;
  if (!(first_replay_ms > 0)) first_replay_ms = graphs.front()->time_replays(1, before).front();
  // A cold row times a flushed cache on purpose. A graph of a millisecond or more is led by a
  // device delay, not a replay (kDelayLeadFromMs), and would spend a whole replay on each warming.
  const bool warm_each = ctx.options.graph.warm_each && ctx.options.cache != CacheState::kCold &&
                         first_replay_ms < kDelayLeadFromMs;
  GraphSamples taken(
      calls, [&ctx, first_replay_ms](CapturedGraph& graph) { lead(ctx, graph, first_replay_ms); },
      warm_each);
  if (sampling.timed_ms) taken.already_timed(*sampling.timed_ms);
  const double started_ms = ctx.api.host_now_ms();
  Measurement m = take_measurement(
      ctx, Timer::kGraph, /*repeats=*/1, first_replay_ms,
      [&](int n) {
        const int each =
            (n + static_cast<int>(graphs.size()) - 1) / static_cast<int>(graphs.size());
        return taken.take(graphs, 0, each, before);
      },
      // Only the adaptive rule reads the noise; leveling sorts every graph's samples each batch.
      ctx.options.sampling.policy == SamplePolicy::kAdaptive
          ? NoiseView([&](const std::vector<double>&) { return taken.leveled(); })
          : NoiseView());
  bool out_of_time = false;
  const double first_captures_ms = captures.capture_ms;
  while (grow && captures_too_spread(ctx, captures, taken.medians())) {
    const size_t had = graphs.size();
    const size_t add = std::min(had, static_cast<size_t>(ctx.options.graph.max_captures) - had);
    // The adaptive policy's ceiling bounds the growth too, the graphs' capture included: a row
    // of a second a call would otherwise replay 32 graphs, 40 s for one case of
    // upsample_bicubic2d_aa_backward, and chunk_cat's 4.5 us rows captured 32 graphs in 0.7-1.2 s.
    const double capture_each_ms = captures.capture_ms / static_cast<double>(had);
    const double added_s =
        static_cast<double>(add) *
        (static_cast<double>(taken.replays_of_first()) * m.median_ms * calls + capture_each_ms) /
        1e3;
    const double spent_s = (first_captures_ms + ctx.api.host_now_ms() - started_ms) / 1e3;
    if (spent_s + added_s > ctx.options.sampling.max_time_s) {
      out_of_time = true;
      break;
    }
    for (size_t i = 0; i < add && capture_another(ctx, *grow, calls, captures); ++i) {
    }
    if (graphs.size() == had) break;
    const int each = static_cast<int>(taken.replays_of_first());
    extend_measurement(
        ctx, each * static_cast<int>(graphs.size() - had),
        [&](int) { return taken.take(graphs, had, each, before); }, m);
  }
  const int count = static_cast<int>(graphs.size());
  m.graph_captures = count;
  m.capture_ms = captures.capture_ms;
  if (captures.bounded) {
    m.markers.push_back(captures_bounded_marker(count, std::max(1, asked), "memory"));
  }
  if (out_of_time) m.markers.push_back(captures_bounded_marker(count, 2 * count, "time"));
  if (count > asked) m.markers.push_back(captures_grown_marker(count, asked));
  if (count > 1 && m.median_ms > 0) {
    const std::vector<double> medians = taken.medians();
    auto [low, high] = std::minmax_element(medians.begin(), medians.end());
    m.capture_spread = (*high - *low) / m.median_ms;
  }
  return m;
}

// --selftest-delay: the same calls captured again with one device delay behind them, sized from
// the undelayed median, so each call is `selftest_delay` of its own time slower. One delay node
// per graph rather than per call keeps its launch cost spread over every call of the replay.
Measurement measure_delayed(const TimerContext& ctx, const Measurement& undelayed, int calls,
                            const Call& before, bool one_round) {
  const double delay_us = ctx.options.selftest_delay * undelayed.median_ms * 1e3;
  const Call& call = ctx.call;
  DeviceApi& api = ctx.api;
  Call delayed = [&call, &api, calls, delay_us] {
    for (int i = 0; i < calls; ++i) call();
    api.delay(delay_us * calls);
  };
  // As many graphs as the undelayed measurement sampled, so both carry the same capture spread.
  const int asked = std::max(1, undelayed.graph_captures);
  Captures captures = capture_all(ctx, delayed, 1, asked);
  GraphSampling sampling;
  sampling.asked = asked;
  sampling.calls = calls;
  sampling.replay_estimate_ms = (undelayed.median_ms * 1e3 + delay_us) * calls / 1e3;
  sampling.one_round = one_round;
  Measurement m = measure_graphs(ctx, captures, sampling, before);
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
                     before, ctx.options.calls_made);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "warmup", e);
  }

  SizedCaptures sized;
  try {
    sized =
        capture_sized(ctx, before, calls_per_graph(ctx, warmup.per_call_ms), warmup.per_call_ms);
  } catch (const DeviceError& e) {
    return graph_failure_verdict(ctx, e.phase(), e);
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "capture", e);
  }

  const int calls = sized.calls;
  Captures& captures = sized.captures;
  try {
    // Captures of nothing cannot spread for any reason worth more graphs. A time-bounded set is
    // sampled one round deep and not grown: a second round or more graphs would pass the ceiling
    // the set was cut to.
    GraphSampling sampling;
    sampling.asked = sized.asked;
    sampling.calls = calls;
    sampling.grow = sized.no_device_work || sized.time_bounded ? nullptr : &ctx.call;
    sampling.replay_estimate_ms = sized.replay_ms;
    sampling.timed_ms = sized.replay_ms;  // the replay that sized the first graph is its sample
    sampling.no_device_work = sized.no_device_work;
    sampling.one_round = sized.time_bounded;
    Measurement m = measure_graphs(ctx, captures, sampling, before);
    const double capture_ms = m.capture_ms;
    if (ctx.options.selftest_delay > 0) {
      m = measure_delayed(ctx, m, calls, before, sized.time_bounded);
    }
    record_warmup(warmup, m);
    m.capture_ms = capture_ms;
    m.calls_per_sample = calls;
    if (sized.no_device_work) m.markers.push_back(no_device_work_marker());
    if (sized.time_bounded) {
      m.markers.push_back(captures_bounded_marker(static_cast<int>(captures.graphs.size()),
                                                  std::max(1, ctx.options.graph.captures), "time"));
    }
    return TimerResult::measured(std::move(m));
  } catch (const DeviceError& e) {
    return graph_failure_verdict(ctx, e.phase(), e);  // a capture that grew the set failed
  } catch (const std::exception& e) {
    return graph_failure_verdict(ctx, "replay", e);
  }
}

}  // namespace caliber
