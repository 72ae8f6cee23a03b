#include "engine/device/generic/event_timer.h"

#include "engine/device/generic/device_type.h"

namespace caliber {

std::vector<double> EventTimer::time_each(const Call& call, int calls, const Call& before_each,
                                          const char* phase) {
  queue_each(call, calls, before_each, phase);
  return collect(phase);
}

void EventTimer::queue_each(const Call& call, int calls, const Call& before_each,
                            const char* phase) {
  // BACKEND_DEFAULT: the flag c10 documents as "enable timing".
  while (events_.size() < 2 * static_cast<size_t>(calls)) {
    events_.emplace_back(stream_.device_type(), c10::EventFlag::BACKEND_DEFAULT);
  }
  for (int i = 0; i < calls; ++i) {
    if (before_each) before_each();
    runtime_step(phase, [&] { events_[2 * i].record(stream_); });
    call();
    runtime_step(phase, [&] { events_[2 * i + 1].record(stream_); });
  }
  queued_ = calls;
}

std::vector<double> EventTimer::collect(const char* phase) {
  const int calls = queued_;
  queued_ = 0;
  std::vector<double> samples;
  samples.reserve(calls);
  runtime_step(phase, [&] {
    if (calls > 0) events_[2 * calls - 1].synchronize();
    for (int i = 0; i < calls; ++i) {
      samples.push_back(events_[2 * i].elapsedTime(events_[2 * i + 1]));
    }
  });
  return samples;
}

}  // namespace caliber
