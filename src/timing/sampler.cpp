#include "timing/sampler.h"

#include <algorithm>

#include "core/error.h"
#include "timing/markers.h"
#include "timing/stopping_rule.h"
#include "timing/throttle_guard.h"

namespace caliber {

namespace {

void record_throttling(const ThrottleGuard& guard, Measurement& m) {
  m.throttled_samples = static_cast<int>(std::count(m.throttled.begin(), m.throttled.end(), true));
  if (auto low = guard.lowest_mhz()) {
    m.sm_clock_min_mhz = m.sm_clock_min_mhz > 0 ? std::min(m.sm_clock_min_mhz, *low) : *low;
  }
  if (auto high = guard.highest_mhz()) m.sm_clock_max_mhz = std::max(m.sm_clock_max_mhz, *high);
  std::erase_if(m.markers,
                [](const std::string& marker) { return marker.starts_with("throttled="); });
  if (m.throttled_samples > 0) m.markers.push_back(throttled_marker(m.throttled_samples));
}

}  // namespace

Measurement take_measurement(const TimerContext& ctx, Timer timer, int repeats,
                             double sample_cost_ms, const SampleSource& source,
                             const NoiseView& judged) {
  Measurement m;
  m.timer_used = timer;
  m.cache = ctx.options.cache;
  m.flush_mb = ctx.options.flush_mb;
  m.flush_method = ctx.options.flush_method;
  m.policy = ctx.options.sampling.policy;
  ThrottleGuard guard(ctx.api, ctx.plan.clock_guard, ctx.options.throttle_fraction);
  StoppingRule rule(ctx.options.sampling);
  std::vector<std::vector<double>> runs;
  for (int r = 0; r < repeats; ++r) {
    std::vector<double> run;
    double start_ms = ctx.api.host_now_ms();
    auto elapsed_s = [&] { return (ctx.api.host_now_ms() - start_ms) / 1e3; };
    while (int n = rule.next_batch(judged ? judged(run) : run, elapsed_s(), sample_cost_ms)) {
      guard.before_batch();
      std::vector<double> batch = source(n);
      bool throttled = guard.after_batch();
      if (batch.empty()) throw Error(ErrorKind::kInternal, "a timer returned no samples");
      run.insert(run.end(), batch.begin(), batch.end());
      m.throttled.insert(m.throttled.end(), batch.size(), throttled);
    }
    runs.push_back(std::move(run));
  }
  summarize(runs, ctx.options.return_mode, ctx.options.quantiles, m);
  record_throttling(guard, m);
  return m;
}

void extend_measurement(const TimerContext& ctx, int n, const SampleSource& source,
                        Measurement& m) {
  if (m.repeat != 1) throw Error(ErrorKind::kInternal, "only a one-repeat measurement extends");
  ThrottleGuard guard(ctx.api, ctx.plan.clock_guard, ctx.options.throttle_fraction);
  guard.before_batch();
  std::vector<double> batch = source(n);
  bool throttled = guard.after_batch();
  if (batch.empty()) throw Error(ErrorKind::kInternal, "a timer returned no samples");
  std::vector<double> samples = m.samples_ms;
  samples.insert(samples.end(), batch.begin(), batch.end());
  m.throttled.insert(m.throttled.end(), batch.size(), throttled);
  summarize({samples}, ctx.options.return_mode, ctx.options.quantiles, m);
  record_throttling(guard, m);
}

void record_warmup(const Warmup& warmup, Measurement& m) {
  m.warmup_calls = warmup.calls;
  m.warmup_ms = warmup.elapsed_ms;
}

}  // namespace caliber
