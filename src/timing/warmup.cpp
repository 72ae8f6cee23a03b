#include "timing/warmup.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/stats.h"

namespace caliber {

namespace {

// A call this long is warm after two, once the warmup's time has passed: the first takes what a
// first call does (JIT, autotuning, lazy loading), the second reads the time; a third adds its
// time (up to a second a row in the whole-corpus screen) and nothing that the timer's own sizing
// does not measure again. Below a millisecond a third call costs next to nothing.
constexpr double kLongCallMs = 1;

}  // namespace

Warmup warm_up(DeviceApi& api, const Call& call, int min_calls, double min_ms,
               const Call& before_each, int calls_made) {
  constexpr int kLargestChunk = 1024;
  Warmup warmup;
  const double start = api.host_now_ms();
  const int made = std::clamp(calls_made, 0, 1);
  min_calls = std::max(min_calls, 2) - made;
  int chunk = 1;
  std::vector<double> previous, last;
  while (warmup.calls < min_calls || warmup.elapsed_ms < min_ms) {
    const double chunk_start = api.host_now_ms();
    previous = std::exchange(last, api.time_each(call, chunk, before_each));
    warmup.calls += chunk;
    const double now = api.host_now_ms();
    warmup.elapsed_ms = now - start;
    // Doubling alone overshoots min_ms by up to a whole chunk (a 5 ms warmup took 10 ms a case
    // on average); the next chunk asks only for what the last one's pace says is left.
    const double pace_ms = (now - chunk_start) / chunk;
    if (pace_ms >= kLongCallMs && warmup.calls + made >= 2 && warmup.elapsed_ms >= min_ms) break;
    int wanted = std::max(min_calls - warmup.calls, 1);
    // One long call at a time, so that the warmup can stop after the second.
    if (pace_ms >= kLongCallMs) wanted = 1;
    if (pace_ms > 0 && warmup.elapsed_ms < min_ms) {
      wanted =
          std::max(wanted, static_cast<int>(std::ceil((min_ms - warmup.elapsed_ms) / pace_ms)));
    }
    chunk = std::clamp(wanted, 1, std::min(chunk * 2, kLargestChunk));
  }
  // The last chunk may be the short one that tops up the time: the estimate takes the chunk
  // before it too, once the first call (JIT, autotune) is behind.
  if (warmup.calls + made > static_cast<int>(last.size()) + 1) {
    last.insert(last.end(), previous.begin(), previous.end());
  }
  warmup.per_call_ms = median(last);
  return warmup;
}

}  // namespace caliber
