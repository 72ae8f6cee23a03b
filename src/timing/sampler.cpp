#include "timing/sampler.h"

#include <algorithm>

#include "core/error.h"
#include "timing/markers.h"
#include "timing/stopping_rule.h"
#include "timing/throttle_guard.h"

namespace caliber {

Measurement take_measurement(const TimerContext& ctx, Timer timer, int repeats,
                             double sample_cost_ms, const SampleSource& source) {
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
    while (int n = rule.next_batch(run, (ctx.api.host_now_ms() - start_ms) / 1e3, sample_cost_ms)) {
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
  m.throttled_samples = static_cast<int>(std::count(m.throttled.begin(), m.throttled.end(), true));
  m.sm_clock_min_mhz = guard.lowest_mhz().value_or(0);
  m.sm_clock_max_mhz = guard.highest_mhz().value_or(0);
  if (m.throttled_samples > 0) m.markers.push_back(throttled_marker(m.throttled_samples));
  return m;
}

void record_warmup(const Warmup& warmup, Measurement& m) {
  m.warmup_calls = warmup.calls;
  m.warmup_ms = warmup.elapsed_ms;
}

}  // namespace caliber
