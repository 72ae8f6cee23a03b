#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/failure_classifier.h"
#include "backend/timer_plan.h"
#include "timing/device_api.h"
#include "timing/measure_options.h"

namespace caliber::testing {

// A scripted device. Each call "takes" the next duration of `call_ms` (cycled) on a fake clock
// that only moves when the fake does work, and everything the timers ask of it is written to
// `log` so tests can check order: "flush", "begin"/"end" around a timed region, "call",
// "capture", "upload", "prime" (the untimed replay ahead of timed ones) and "replay",
// "rng_guard"/"rng_restore", "healthy".
class FakeDeviceApi : public DeviceApi {
 public:
  std::vector<double> call_ms = {1.0};
  double host_overhead_ms = 0.001;  // wall time each call costs besides its device time
  // Host launch path of a graph replay; a replay launched onto an idle device waits for it.
  double graph_launch_gap_ms = 0.05;
  // What a replay takes on the device besides its calls (its own start).
  double graph_replay_start_ms = 0;
  // What a graph's first launch adds when the graph was not uploaded before it.
  double graph_first_launch_ms = 0;
  // What a replay adds when the device's replay before it was another graph's (its own buffers
  // out of the cache).
  double graph_switch_ms = 0;
  double capture_host_ms_per_call = 0;  // host time a capture takes per captured call
  // An op shorter than its launch: each call timed on its own reads at least this (graph replays
  // do not).
  double launch_floor_ms = 0;
  std::vector<std::string> log;
  std::vector<uint64_t> flushed_bytes;     // the size asked of each flush (0: the device's own)
  std::vector<FlushMethod> flush_methods;  // the method asked of each flush
  // What each call launches besides its kernels (the kernel timer's activities): the call's
  // duration is split as `memsets_per_call` memsets of `memset_ms` each, the rest one kernel.
  int memsets_per_call = 0;
  double memset_ms = 0;

  // Scripted failures.
  std::optional<DeviceError> capture_error;  // thrown by capture() after the calls ran
  std::optional<std::string> replay_error;   // thrown by every replay
  bool healthy_after_failure = true;
  bool batch_deadlocks = false;
  bool has_generators = true;
  std::optional<int> max_clock_mhz;
  std::vector<int> clock_mhz;  // successive sm_clock_mhz() readings, the last one repeated
  // Device memory: unknown unless memory_total_bytes is set; each capture then takes
  // capture_bytes of memory_free_bytes and keeps it.
  std::optional<uint64_t> memory_total_bytes;
  uint64_t memory_free_bytes = 0;
  uint64_t capture_bytes = 0;
  uint64_t memory_cached_bytes = 0;  // what release_cached_memory() hands back to the free
  // Added to every call of the i-th captured graph (cycling): a graph's own layout.
  std::vector<double> capture_offset_ms;

  // What happened.
  int calls = 0;
  int captures = 0;
  int last_calls_per_graph = 0;
  int last_calls_per_batch = 0;
  int kernel_timings = 0;
  int rng_guards_taken = 0;
  bool rng_guard_held = false;
  bool rng_guard_held_during_capture = false;
  double timeout_seen_s = 0;

  std::string name() const override { return "fake"; }
  void synchronize() override {}
  double host_now_ms() const override { return now_ms_; }

  std::vector<double> time_each(const Call& call, int n, const Call& before_each) override {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) {
      if (before_each) before_each();
      log.push_back("begin");
      double ms = run(call);
      if (launch_floor_ms > ms) {  // the device waited for the host's next launch
        now_ms_ += launch_floor_ms - ms;
        ms = launch_floor_ms;
      }
      out.push_back(ms);
      log.push_back("end");
    }
    return out;
  }

  std::vector<double> time_host(const Call& call, int n, const Call& before_each) override {
    return time_each(call, n, before_each);
  }

  std::vector<CallActivities> kernel_activities_each(const Call& call, int n,
                                                     const Call& before_each) override {
    ++kernel_timings;
    std::vector<CallActivities> out;
    for (double ms : time_each(call, n, before_each)) {
      CallActivities a;
      a.kernels = 1;
      a.memsets = memsets_per_call;
      a.memset_ns = static_cast<uint64_t>(std::llround(memsets_per_call * memset_ms * 1e6));
      a.kernel_ns = static_cast<uint64_t>(std::llround(ms * 1e6)) - a.memset_ns;
      out.push_back(a);
    }
    return out;
  }

  std::unique_ptr<CapturedGraph> capture(const Call& call, int calls_per_graph) override {
    ++captures;
    last_calls_per_graph = calls_per_graph;
    memory_free_bytes -= std::min(capture_bytes, memory_free_bytes);
    rng_guard_held_during_capture = rng_guard_held;
    log.push_back("capture");
    capturing_ = true;
    counted_calls_ = 0;
    captured_delay_ms_ = 0;
    for (int i = 0; i < calls_per_graph; ++i) call();
    now_ms_ += capture_host_ms_per_call * calls_per_graph;
    capturing_ = false;
    if (capture_error) throw *capture_error;
    // A timer that bundles several op calls into one captured call (the selftest delay) is
    // seen through count_call(); otherwise each captured call is one op call.
    int op_calls = counted_calls_ > 0 ? counted_calls_ : calls_per_graph;
    double offset_ms = capture_offset_ms.empty()
                           ? 0
                           : capture_offset_ms[(captures - 1) % capture_offset_ms.size()];
    return std::make_unique<Graph>(*this, op_calls, captured_delay_ms_, offset_ms);
  }

  // For a test's op call: lets a capture see how many op calls a graph holds.
  void count_call() {
    if (capturing_) ++counted_calls_;
  }

  std::vector<double> delays_us;  // every delay asked for
  void delay(double microseconds) override {
    log.push_back("delay");
    delays_us.push_back(microseconds);
    if (capturing_) {
      captured_delay_ms_ += microseconds / 1e3;
    } else {
      now_ms_ += microseconds / 1e3;
    }
  }

  BatchOutcome time_batch(const Call& call, int n, double timeout_s, const Call& before) override {
    last_calls_per_batch = n;
    timeout_seen_s = timeout_s;
    if (before) before();
    if (batch_deadlocks) {
      now_ms_ += timeout_s * 1e3;
      return {.deadlocked = true, .total_ms = 0};
    }
    log.push_back("begin");
    double total = 0;
    for (int i = 0; i < n; ++i) total += run(call);
    log.push_back("end");
    return {.deadlocked = false, .total_ms = total};
  }

  void flush_cache(uint64_t bytes, FlushMethod method) override {
    log.push_back("flush");
    flushed_bytes.push_back(bytes);
    flush_methods.push_back(method);
    now_ms_ += 0.01;
  }

  std::optional<DeviceMemory> memory() override {
    if (!memory_total_bytes) return std::nullopt;
    return DeviceMemory{.free_bytes = memory_free_bytes, .total_bytes = *memory_total_bytes};
  }

  void release_cached_memory() override {
    log.push_back("release");
    memory_free_bytes += memory_cached_bytes;
    memory_cached_bytes = 0;
  }

  std::optional<int> sm_clock_mhz() override {
    if (clock_mhz.empty()) return std::nullopt;
    int value = clock_mhz[std::min(clock_reads_, clock_mhz.size() - 1)];
    ++clock_reads_;
    return value;
  }
  std::optional<int> max_sm_clock_mhz() override { return max_clock_mhz; }

  std::unique_ptr<ScopedRngGuard> rng_guard() override {
    if (!has_generators) return nullptr;
    ++rng_guards_taken;
    return std::make_unique<RngGuard>(*this);
  }

  bool healthy() override {
    log.push_back("healthy");
    return healthy_after_failure;
  }

  // The durations each call would take, in order, without advancing anything.
  double next_call_ms() const { return call_ms[next_ % call_ms.size()]; }

 private:
  class Graph : public CapturedGraph {
   public:
    Graph(FakeDeviceApi& device, int calls, double delay_ms, double offset_ms)
        : device_(device), calls_(calls), delay_ms_(delay_ms), offset_ms_(offset_ms) {}
    // The untimed leading replay is the one launched onto an idle device: it alone waits for
    // the host's launch path.
    void replay_untimed() override {
      device_.log.push_back("prime");
      device_.now_ms_ += device_.graph_launch_gap_ms;
      replay_once();
    }

    void queue_timed(int replays, const Call& before_each) override {
      for (int r = 0; r < replays; ++r) {
        if (before_each) before_each();
        device_.log.push_back("begin");
        device_.log.push_back("replay");
        queued_.push_back(replay_once());
        device_.log.push_back("end");
      }
    }

    std::vector<double> collect_timed() override { return std::exchange(queued_, {}); }

    void upload() override {
      device_.log.push_back("upload");
      on_device_ = true;
    }

   private:
    double replay_once() {
      if (device_.replay_error) throw DeviceError("replay", *device_.replay_error);
      const double start_ms =
          delay_ms_ + device_.graph_replay_start_ms +
          (std::exchange(on_device_, true) ? 0 : device_.graph_first_launch_ms) +
          (std::exchange(device_.last_replayed_, this) == this ? 0 : device_.graph_switch_ms);
      double total = start_ms;
      device_.now_ms_ += start_ms;
      for (int i = 0; i < calls_; ++i) total += device_.advance() + offset_ms_;
      device_.now_ms_ += offset_ms_ * calls_;
      return total;
    }

    FakeDeviceApi& device_;
    int calls_;
    double delay_ms_;
    double offset_ms_;
    bool on_device_ = false;  // uploaded, or launched once
    std::vector<double> queued_;
  };

  class RngGuard : public ScopedRngGuard {
   public:
    explicit RngGuard(FakeDeviceApi& device) : device_(device) {
      device_.rng_guard_held = true;
      device_.log.push_back("rng_guard");
    }
    ~RngGuard() override {
      device_.rng_guard_held = false;
      device_.log.push_back("rng_restore");
    }

   private:
    FakeDeviceApi& device_;
  };

  double advance() {
    double ms = call_ms[next_++ % call_ms.size()];
    now_ms_ += ms + host_overhead_ms;
    return ms;
  }

  double run(const Call& call) {
    call();
    return advance();
  }

  size_t next_ = 0;
  size_t clock_reads_ = 0;
  double now_ms_ = 0;
  bool capturing_ = false;
  int counted_calls_ = 0;
  double captured_delay_ms_ = 0;
  const CapturedGraph* last_replayed_ = nullptr;  // the graph the device replayed last
};

// The classifier wording tests use: one phrase per verdict.
inline FailureClassifier test_classifier() {
  return FailureClassifier({{"illegal memory access", CaptureVerdict::kFatal},
                            {"capture unjoined", CaptureVerdict::kPoisoned},
                            {"not permitted when stream is capturing", CaptureVerdict::kRefused}});
}

// Options that keep fake measurements short and deterministic.
inline MeasureOptions test_options() {
  MeasureOptions options;
  options.op = "mm";
  options.classifier = test_classifier();
  options.sampling.warmup_ms = 5;
  options.sampling.rep_ms = 20;
  options.graph.warmup_ms = 5;
  return options;
}

inline TimerPlan plan_for(Timer primary) {
  TimerPlan plan;
  plan.primary = primary;
  if (primary == Timer::kGraph || primary == Timer::kBatch) plan.fallback = Timer::kDirect;
  plan.l2_flush = true;
  plan.rng_guard = true;
  return plan;
}

}  // namespace caliber::testing
