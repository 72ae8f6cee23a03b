#include "timing/batch_timer.h"

#include <algorithm>
#include <cmath>

#include "timing/failure_verdicts.h"
#include "timing/sampler.h"

namespace caliber {
namespace {

struct Deadlocked {};

int calls_per_batch(const TimerContext& ctx, double per_call_ms) {
  if (ctx.options.cache == CacheState::kCold) return 1;
  const BatchSettings& batch = ctx.options.batch;
  if (per_call_ms <= 0) return batch.max_calls;
  double calls = std::ceil(batch.target_ms / per_call_ms);
  return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(batch.max_calls)));
}

}  // namespace

TimerResult time_batch(const TimerContext& ctx) {
  return with_classified_failures(ctx.options, "batch", [&]() -> TimerResult {
    Call before = ctx.before_each();
    Warmup warmup = warm_up(ctx.api, ctx.call, /*min_calls=*/3, ctx.options.sampling.warmup_ms,
                            before, ctx.options.calls_made);
    int calls = calls_per_batch(ctx, warmup.per_call_ms);
    auto one_batch_ms = [&] {
      BatchOutcome outcome =
          ctx.api.time_batch(ctx.call, calls, ctx.options.batch.timeout_s, before);
      if (outcome.deadlocked) throw Deadlocked{};
      return outcome.total_ms;
    };
    try {
      // A probe batch finds a synchronising op before the sampling loop starts.
      double probe_ms = one_batch_ms();
      Measurement m = take_measurement(ctx, Timer::kBatch, /*repeats=*/1, probe_ms, [&](int n) {
        std::vector<double> samples;
        samples.reserve(n);
        for (int i = 0; i < n; ++i) samples.push_back(one_batch_ms() / calls);
        return samples;
      });
      record_warmup(warmup, m);
      m.calls_per_sample = calls;
      return TimerResult::measured(std::move(m));
    } catch (const Deadlocked&) {
      return TimerResult::fall_back("deadlock");
    }
  });
}

}  // namespace caliber
