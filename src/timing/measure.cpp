#include "timing/measure.h"

#include "core/error.h"
#include "timing/batch_timer.h"
#include "timing/graph_timer.h"
#include "timing/markers.h"
#include "timing/per_call_timers.h"

namespace caliber {
namespace {

TimerResult run_timer(Timer timer, const TimerContext& ctx) {
  switch (timer) {
    case Timer::kGraph:
      return time_graph(ctx);
    case Timer::kBatch:
      return time_batch(ctx);
    case Timer::kDirect:
      return TimerResult::measured(time_direct(ctx));
    case Timer::kKernel:
      return TimerResult::measured(time_kernel(ctx));
    case Timer::kHost:
      return TimerResult::measured(time_host(ctx));
    case Timer::kAuto:
      break;
  }
  throw Error(ErrorKind::kInternal, "measure: the timer plan was not resolved (timer auto)");
}

}  // namespace

Measurement measure(DeviceApi& api, const TimerPlan& plan, const MeasureOptions& options,
                    const Call& call) {
  double start_ms = api.host_now_ms();
  TimerContext ctx{api, plan, options, call};
  TimerResult result = run_timer(plan.primary, ctx);
  if (!result.measurement) {
    Timer fallback = plan.fallback.value_or(Timer::kDirect);
    TimerResult second = run_timer(fallback, ctx);
    if (!second.measurement) {
      throw Error(
          ErrorKind::kInternal,
          fmt::format("measure: the fallback timer {} was refused too", to_string(fallback)));
    }
    second.measurement->markers.insert(
        second.measurement->markers.begin(),
        fallback_marker(result.fallback_phase, second.measurement->repeat));
    result = std::move(second);
  }
  Measurement m = std::move(*result.measurement);
  m.wall_s = (api.host_now_ms() - start_ms) / 1e3;
  return m;
}

}  // namespace caliber
