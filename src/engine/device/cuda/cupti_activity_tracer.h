#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "timing/call_activities.h"

namespace caliber::cuda {

// CUPTI's activity API, which delivers device-side durations of every kernel, memcpy and memset.
// CUPTI's buffer callbacks are process-wide, so there is one tracer per process. Tracing is on
// only between start() and stop(), so that other timers pay nothing for it.
class CuptiActivityTracer {
 public:
  static CuptiActivityTracer& instance();

  void start();
  // Waits for the device, delivers every record since start() and turns tracing off.
  std::vector<DeviceActivity> stop();
  // CUPTI's clock, the one activity timestamps are in.
  static uint64_t now_ns();

  // Called from CUPTI's buffer-completed callback (any thread).
  void deliver(uint8_t* buffer, size_t valid_size);

 private:
  CuptiActivityTracer() = default;
  void disable_kinds();

  std::mutex mutex_;
  std::vector<DeviceActivity> records_;
  bool callbacks_registered_ = false;
};

// Turns tracing off on every exit path (a call that throws included).
class ScopedActivityTrace {
 public:
  ScopedActivityTrace() { CuptiActivityTracer::instance().start(); }
  ~ScopedActivityTrace();
  std::vector<DeviceActivity> stop();

 private:
  bool stopped_ = false;
};

}  // namespace caliber::cuda
