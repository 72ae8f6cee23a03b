#include "timing/per_call_timers.h"

#include <algorithm>
#include <functional>

#include "timing/failure_verdicts.h"
#include "timing/repeat_rule.h"
#include "timing/sampler.h"

namespace caliber {
namespace {

using TimeCalls = std::function<std::vector<double>(DeviceApi&, const Call&, int, const Call&)>;

Measurement time_per_call(const TimerContext& ctx, Timer timer, const TimeCalls& time_calls,
                          bool honours_repeat) {
  return with_classified_failures(ctx.options, to_string(timer), [&] {
    Call before = ctx.before_each();
    Warmup warmup = warm_up(ctx.api, ctx.call, /*min_calls=*/3, ctx.options.sampling.warmup_ms,
                            before, ctx.options.calls_made);
    std::vector<std::string> markers;
    int repeats = honours_repeat ? repeats_to_take(ctx.options, markers) : 1;
    Measurement m = take_measurement(ctx, timer, repeats, warmup.per_call_ms, [&](int n) {
      return time_calls(ctx.api, ctx.call, n, before);
    });
    record_warmup(warmup, m);
    m.markers.insert(m.markers.begin(), markers.begin(), markers.end());
    return m;
  });
}

}  // namespace

Measurement time_direct(const TimerContext& ctx) {
  return time_per_call(ctx, Timer::kDirect, &DeviceApi::time_each, /*honours_repeat=*/true);
}

Measurement time_host(const TimerContext& ctx) {
  return time_per_call(ctx, Timer::kHost, &DeviceApi::time_host, /*honours_repeat=*/true);
}

Measurement time_kernel(const TimerContext& ctx) {
  // A kernel sample is one call, and a short run of calls reads one level of a per-call time
  // that moves over a measurement: the adaptive floor's 10 ms windows of uniform_ fp16 4096^2
  // (67-172 calls) read 31.87 or 32.19 us, while the fixed policy's 100 ms windows agreed within
  // 0.19% (docs/measurement.md, "Runs 9 and 10"). The graph timer's samples already span
  // hundreds of calls each.
  MeasureOptions options = ctx.options;
  if (options.sampling.policy == SamplePolicy::kAdaptive) {
    options.sampling.min_time_s = std::max(options.sampling.min_time_s, kKernelMinTimeS);
  }
  const TimerContext kernel_ctx = ctx.with_options(options);
  // Every sampled call's activities, kept beside its total so the row can say what the total
  // was made of.
  std::vector<CallActivities> sampled;
  Measurement m = time_per_call(
      kernel_ctx, Timer::kKernel,
      [&sampled](DeviceApi& api, const Call& call, int n, const Call& before) {
        std::vector<CallActivities> calls = api.kernel_activities_each(call, n, before);
        std::vector<double> totals;
        totals.reserve(calls.size());
        for (const CallActivities& c : calls) totals.push_back(c.total_ms());
        sampled.insert(sampled.end(), calls.begin(), calls.end());
        return totals;
      },
      /*honours_repeat=*/false);
  m.activities = summarize_activities(sampled);
  return m;
}

}  // namespace caliber
