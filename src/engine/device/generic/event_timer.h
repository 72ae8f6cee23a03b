#pragma once

#include <c10/core/Event.h>
#include <c10/core/Stream.h>

#include <vector>

#include "timing/device_api.h"

namespace caliber {

// Device events around calls on one stream, through c10's device-generic Event (the backend's
// DeviceGuardImpl records and times them). Events are kept and re-recorded, so that creating
// them never falls between a pair.
class EventTimer {
 public:
  explicit EventTimer(c10::Stream stream) : stream_(stream) {}

  // `calls` calls back to back, each between its own pair of events; `before_each` runs outside
  // them. Synchronises on the last event; one duration per call, in milliseconds. Throws
  // DeviceError(`phase`) with the runtime's words when it fails.
  std::vector<double> time_each(const Call& call, int calls, const Call& before_each,
                                const char* phase);

  // The parts of time_each: queue the calls between their events without waiting, then wait
  // for the last event and read the durations.
  void queue_each(const Call& call, int calls, const Call& before_each, const char* phase);
  std::vector<double> collect(const char* phase);

  c10::Stream stream() const { return stream_; }

 private:
  c10::Stream stream_;
  std::vector<c10::Event> events_;
  int queued_ = 0;
};

}  // namespace caliber
