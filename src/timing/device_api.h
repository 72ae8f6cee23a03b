#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/caliber_options.h"
#include "timing/call_activities.h"

namespace caliber {

// One call of the op under test, as the engine bound it (inputs already built).
using Call = std::function<void()>;

// A failure raised by the device runtime, with the phase it happened in. The backend's
// FailureClassifier turns its message into a verdict.
class DeviceError : public std::runtime_error {
 public:
  DeviceError(std::string phase, const std::string& message)
      : std::runtime_error(message), phase_(std::move(phase)) {}
  const std::string& phase() const { return phase_; }

 private:
  std::string phase_;
};

// A captured graph of N calls; each replay is timed with device events.
class CapturedGraph {
 public:
  virtual ~CapturedGraph() = default;
  // `replays` replays queued back to back, each between its own device events, behind one
  // untimed replay that keeps the device busy while the host queues the rest: a replay launched
  // onto an idle device would start its clock while the host is still in the launch path (tens
  // of microseconds for a graph of hundreds of nodes). `before_each` runs before each timed
  // replay, outside its events (cache flush). Synchronises; one duration per timed replay, in
  // milliseconds.
  std::vector<double> time_replays(int replays, const Call& before_each) {
    replay_untimed();
    queue_timed(replays, before_each);
    return collect_timed();
  }

  // The parts of time_replays, so that several graphs replay in turn behind one untimed replay:
  // queue_timed queues `replays` replays behind whatever the stream holds, without waiting, and
  // collect_timed waits for them. Whoever queues keeps the device busy ahead of them (an untimed
  // replay, or another graph's queued replays).
  virtual void replay_untimed() = 0;
  virtual void queue_timed(int replays, const Call& before_each) = 0;
  virtual std::vector<double> collect_timed() = 0;

  // A runtime that uploads an executable graph to the device at its first launch makes that
  // launch slower than the next ones; this uploads it now, queued ahead of any replay. The
  // default does nothing: the first launch uploads, as without it.
  virtual void upload() {}
};

// What the device has left and has in all, in bytes.
struct DeviceMemory {
  uint64_t free_bytes = 0;
  uint64_t total_bytes = 0;
};

struct BatchOutcome {
  bool deadlocked = false;  // a call synchronised the host while the stream was blocked
  double total_ms = 0;
};

// RAII: a throwaway RNG state for the duration of a capture.
class ScopedRngGuard {
 public:
  virtual ~ScopedRngGuard() = default;
};

// The seam between the timers and a device. Implementations: CUDA (engine/device/cuda), the
// host (engine/device/host) and a scripted fake in tests. Everything that decides what a number
// means (repeat medians, fallbacks, verdicts, stopping rules) lives above this interface.
class DeviceApi {
 public:
  virtual ~DeviceApi() = default;
  virtual std::string name() const = 0;

  virtual void synchronize() = 0;
  virtual double host_now_ms() const = 0;

  // `calls` back-to-back calls, each between device events; `before_each` runs outside the
  // events (cache flush). Returns one duration per call, in milliseconds. An empty `before_each`
  // (here and below) means nothing runs between calls.
  virtual std::vector<double> time_each(const Call& call, int calls, const Call& before_each) = 0;

  // Whether time_each measures with device events. A device without them (the host, a generic
  // runtime without events) times time_each from the host like time_host; the timer plan never
  // offers `direct` there, so only warmups and the peaks probe use it.
  virtual bool has_device_events() const { return true; }

  // Wall clock around call + synchronize, per call; `before_each` is synchronised before the
  // clock starts, so its work is not the call's.
  virtual std::vector<double> time_host(const Call& call, int calls, const Call& before_each);

  // Captures `calls_per_graph` calls, on the current stream or, where that is the default
  // stream, a side stream; the caller has warmed the call up on the current stream. Throws
  // DeviceError with the phase that failed ("warmup" for a side stream's eager call, "capture")
  // when the runtime refuses.
  virtual std::unique_ptr<CapturedGraph> capture(const Call& call, int calls_per_graph) = 0;

  // Queues `calls` calls behind a blocking kernel, releases it, and times the whole batch.
  // Gives up after `timeout_s` when a call waits on the host (the stream is released first).
  // `before` runs before the blocking kernel is queued, outside the timed region (cache flush).
  virtual BatchOutcome time_batch(const Call& call, int calls, double timeout_s,
                                  const Call& before) = 0;

  // The device kernels, memsets and memcpys each call launched, counted and timed per kind from
  // activity tracing (attribute_activities); work done by `before_each` is not attributed to
  // the call. One entry per call.
  virtual std::vector<CallActivities> kernel_activities_each(const Call& call, int calls,
                                                             const Call& before_each) = 0;

  // Makes the next sample start with a cold cache by touching `bytes` of device memory (0: the
  // device's own size, at least its last-level cache) the way `method` says: written (the cache
  // is left holding dirty lines), read (clean lines), or written then read.
  virtual void flush_cache(uint64_t bytes, FlushMethod method) = 0;

  // Queues `microseconds` of device time on the current stream (a graph being captured holds
  // it): the selftest slowdown that shows whether compare's verdicts find a known regression.
  // Only backends whose capabilities say `device_delay` implement it.
  virtual void delay(double microseconds) {
    (void)microseconds;
    throw DeviceError("delay", name() + " cannot queue a device delay");
  }

  // The device's free and total memory as its runtime reports them (memory a caching allocator
  // holds counts as used), where the backend can read them: the graph timer keeps capturing
  // graphs only while another one fits.
  virtual std::optional<DeviceMemory> memory() { return std::nullopt; }

  // Hands the memory a caching allocator holds unused back to the device, the pools of graphs
  // already destroyed included (torch frees those only when an allocation would fail), so that
  // memory() then counts it as free.
  virtual void release_cached_memory() {}

  // Current and maximum SM clock, where the backend can read them.
  virtual std::optional<int> sm_clock_mhz() = 0;
  virtual std::optional<int> max_sm_clock_mhz() = 0;

  // A throwaway RNG state for a capture; nullptr when the backend has no default generators.
  virtual std::unique_ptr<ScopedRngGuard> rng_guard() = 0;

  // After a failed capture: can the device still run work? false means poisoned.
  virtual bool healthy() = 0;
};

}  // namespace caliber
