#include "timing/per_call_timers.h"

#include "timing/failure_verdicts.h"
#include "timing/repeat_rule.h"
#include "timing/sampler.h"

namespace caliber {
namespace {

using TimeCalls = std::vector<double> (DeviceApi::*)(const Call&, int, const Call&);

Measurement time_per_call(const TimerContext& ctx, Timer timer, TimeCalls time_calls,
                          bool honours_repeat) {
  return with_classified_failures(ctx.options, to_string(timer), [&] {
    Call before = ctx.before_each();
    Warmup warmup =
        warm_up(ctx.api, ctx.call, /*min_calls=*/3, ctx.options.sampling.warmup_ms, before);
    std::vector<std::string> markers;
    int repeats = honours_repeat ? repeats_to_take(ctx.options, markers) : 1;
    Measurement m = take_measurement(ctx, timer, repeats, warmup.per_call_ms, [&](int n) {
      return (ctx.api.*time_calls)(ctx.call, n, before);
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
  return time_per_call(ctx, Timer::kKernel, &DeviceApi::kernel_time_each,
                       /*honours_repeat=*/false);
}

}  // namespace caliber
