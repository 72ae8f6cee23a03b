#include "timing/warmup.h"

#include <algorithm>

#include "core/stats.h"

namespace caliber {

Warmup warm_up(DeviceApi& api, const Call& call, int min_calls, double min_ms,
               const Call& before_each) {
  constexpr int kLargestChunk = 1024;
  Warmup warmup;
  double start = api.host_now_ms();
  min_calls = std::max(min_calls, 2);
  int chunk = 1;
  std::vector<double> last;
  while (warmup.calls < min_calls || warmup.elapsed_ms < min_ms) {
    last = api.time_each(call, chunk, before_each);
    warmup.calls += chunk;
    warmup.elapsed_ms = api.host_now_ms() - start;
    chunk = std::min(chunk * 2, kLargestChunk);
  }
  warmup.per_call_ms = median(last);
  return warmup;
}

}  // namespace caliber
