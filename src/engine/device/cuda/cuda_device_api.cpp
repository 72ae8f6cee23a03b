#include "engine/device/cuda/cuda_device_api.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "backend/cuda_enumeration.h"
#include "engine/device/cuda/blocking_kernel.h"
#include "engine/device/cuda/cuda_check.h"
#include "engine/device/cuda/cuda_event_pool.h"
#include "engine/device/cuda/cuda_graph_capture.h"
#include "engine/device/cuda/cuda_rng_guard.h"
#include "engine/device/cuda/cupti_activity_tracer.h"
#include "engine/device/cuda/delay_kernel.h"
#include "engine/device/cuda/read_flush_kernel.h"

namespace caliber {
namespace {

using cuda::check;

// Releases the blocking kernel from another thread when the enqueuing thread has not finished
// within the timeout: a call that synchronises the host waits on the blocked stream, and only a
// release lets it (and the enqueuing thread) go on.
class Watchdog {
 public:
  Watchdog(double timeout_s, volatile int* release) : release_(release) {
    thread_ = std::thread([this, timeout_s] {
      std::unique_lock<std::mutex> lock(mutex_);
      auto timeout = std::chrono::duration<double>(timeout_s);
      if (!done_cv_.wait_for(lock, timeout, [this] { return done_; })) {
        fired_ = true;
        release_batch(release_);
      }
    });
  }
  ~Watchdog() { finish(); }

  // The enqueuing thread is done; returns true when the watchdog had to release the stream.
  bool finish() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_one();
    if (thread_.joinable()) thread_.join();
    return fired_;
  }

  static void release_batch(volatile int* release) {
    *release = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

 private:
  volatile int* release_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;
};

// One stream per device for the whole process: the caching allocator reuses a freed block only on
// the stream it was allocated on, so a worker that took a new pool stream per op would keep up to
// 32 pools' worth of cached memory.
c10::cuda::CUDAStream work_stream(c10::DeviceIndex device) {
  static std::map<c10::DeviceIndex, c10::cuda::CUDAStream> streams;
  auto it = streams.find(device);
  if (it == streams.end()) {
    it = streams.emplace(device, c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device))
             .first;
  }
  return it->second;
}

class CudaDeviceApi : public DeviceApi {
 public:
  CudaDeviceApi(int device_index, const DeviceInfo& info)
      : device_index_(device_index), max_sm_clock_mhz_(info.max_sm_clock_mhz) {
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(device_index));
    // Everything from here on (inputs, untimed calls, timed calls, captures) runs on one pool
    // stream rather than the legacy default stream. Autograd runs a backward node on the stream
    // its forward ran on, so a backward op's forward must already sit on a stream that can be
    // captured: with the forward on the default stream, the capture of every backward op is
    // refused and it falls back to `direct`.
    work_stream_.emplace(work_stream(static_cast<c10::DeviceIndex>(device_index)));
    l2_bytes_ = info.l2_cache_bytes;
    if (l2_bytes_ == 0) {
      int bytes = 0;
      check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device_index), "setup",
            "cudaDeviceGetAttribute(L2CacheSize)");
      l2_bytes_ = static_cast<uint64_t>(bytes);
    }
    if (max_sm_clock_mhz_ <= 0) {
      int khz = 0;
      if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device_index) == cudaSuccess) {
        max_sm_clock_mhz_ = khz / 1000;
      }
    }
    // Two words of host-mapped memory the blocking kernel polls: release, timed_out.
    void* host = nullptr;
    check(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable),
          "setup", "cudaHostAlloc");
    flags_ = static_cast<volatile int*>(host);
    void* device = nullptr;
    check(cudaHostGetDevicePointer(&device, host, 0), "setup", "cudaHostGetDevicePointer");
    device_flags_ = static_cast<volatile int*>(device);
  }

  ~CudaDeviceApi() override {
    if (flush_buffer_ != nullptr) cudaFree(flush_buffer_);
    if (flags_ != nullptr) cudaFreeHost(const_cast<int*>(flags_));
  }

  std::string name() const override { return "cuda:" + std::to_string(device_index_); }

  void synchronize() override {
    check(cudaStreamSynchronize(stream()), "synchronize", "cudaStreamSynchronize");
  }

  double host_now_ms() const override {
    using Ms = std::chrono::duration<double, std::milli>;
    return Ms(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  std::vector<double> time_each(const Call& call, int calls, const Call& before_each) override {
    cudaStream_t s = stream();
    events_.reserve(2 * static_cast<size_t>(calls), "direct");
    for (int i = 0; i < calls; ++i) {
      if (before_each) before_each();
      check(cudaEventRecord(events_[2 * i], s), "direct", "cudaEventRecord");
      call();
      check(cudaEventRecord(events_[2 * i + 1], s), "direct", "cudaEventRecord");
    }
    std::vector<double> samples;
    samples.reserve(calls);
    for (int i = 0; i < calls; ++i) {
      samples.push_back(cuda::elapsed_ms(events_[2 * i], events_[2 * i + 1], "direct"));
    }
    return samples;
  }

  void delay(double microseconds) override {
    auto ns = static_cast<uint64_t>(std::llround(std::max(microseconds, 0.0) * 1e3));
    check(cuda::launch_delay(stream(), ns), "delay", "launch_delay");
  }

  std::unique_ptr<CapturedGraph> capture(const Call& call, int calls_per_graph) override {
    return cuda::capture_cuda_graph(call, calls_per_graph, device_index_);
  }

  BatchOutcome time_batch(const Call& call, int calls, double timeout_s,
                          const Call& before) override {
    if (before) before();
    cudaStream_t s = stream();
    events_.reserve(2, "batch");
    flags_[0] = 0;
    flags_[1] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    // The kernel's own limit is a backstop behind the watchdog, never the normal release.
    auto kernel_timeout_ns = static_cast<unsigned long long>((2 * timeout_s + 1) * 1e9);
    check(cuda::launch_blocking_kernel(s, device_flags_, device_flags_ + 1, kernel_timeout_ns),
          "batch", "launch blocking kernel");
    check(cudaEventRecord(events_[0], s), "batch", "cudaEventRecord");
    std::exception_ptr failure;
    bool released_by_watchdog = false;
    {
      Watchdog watchdog(timeout_s, flags_);
      try {
        for (int i = 0; i < calls; ++i) call();
        check(cudaEventRecord(events_[1], s), "batch", "cudaEventRecord");
      } catch (...) {
        failure = std::current_exception();
      }
      released_by_watchdog = watchdog.finish();
    }
    Watchdog::release_batch(flags_);
    if (failure) {
      cudaStreamSynchronize(s);
      std::rethrow_exception(failure);
    }
    double total_ms = cuda::elapsed_ms(events_[0], events_[1], "batch");
    if (released_by_watchdog || flags_[1] != 0) return {.deadlocked = true, .total_ms = 0};
    return {.deadlocked = false, .total_ms = total_ms};
  }

  std::vector<CallActivities> kernel_activities_each(const Call& call, int calls,
                                                     const Call& before_each) override {
    std::vector<CallWindow> windows;
    windows.reserve(calls);
    cuda::ScopedActivityTrace trace;
    // Each call runs alone on an idle device between two CUPTI timestamps; the device work that
    // starts inside its window is its own (the flush before it has finished by then).
    for (int i = 0; i < calls; ++i) {
      if (before_each) before_each();
      check(cudaDeviceSynchronize(), "kernel", "cudaDeviceSynchronize");
      uint64_t begin_ns = cuda::CuptiActivityTracer::now_ns();
      call();
      check(cudaDeviceSynchronize(), "kernel", "cudaDeviceSynchronize");
      windows.push_back({begin_ns, cuda::CuptiActivityTracer::now_ns()});
    }
    return attribute_activities(trace.stop(), windows);
  }

  void flush_cache(uint64_t bytes, FlushMethod method) override {
    // By default twice the L2 size: a write-back cache holding any of the op's lines after this
    // is unlikely, and one L2 size is the floor the caliber promises.
    const uint64_t want = bytes > 0 ? bytes : std::max<uint64_t>(2 * l2_bytes_, 8u << 20);
    if (flush_buffer_ != nullptr && flush_bytes_ != want) {
      check(cudaFree(flush_buffer_), "flush", "cudaFree");
      flush_buffer_ = nullptr;
    }
    if (flush_buffer_ == nullptr) {
      flush_bytes_ = want;
      // The aligned word past the buffer is where the read kernel may store its folded value.
      check(cudaMalloc(&flush_buffer_, sink_offset() + sizeof(unsigned)), "flush", "cudaMalloc");
      // Defined contents for a read-only flush; the write flushes overwrite them anyway.
      check(cudaMemsetAsync(flush_buffer_, 0, flush_bytes_, stream()), "flush", "cudaMemsetAsync");
    }
    if (method == FlushMethod::kWrite || method == FlushMethod::kWriteRead) {
      flush_value_ ^= 1;
      check(cudaMemsetAsync(flush_buffer_, flush_value_, flush_bytes_, stream()), "flush",
            "cudaMemsetAsync");
    }
    if (method == FlushMethod::kRead || method == FlushMethod::kWriteRead) {
      auto* sink = reinterpret_cast<unsigned*>(static_cast<char*>(flush_buffer_) + sink_offset());
      check(cuda::launch_read_flush(stream(), flush_buffer_, flush_bytes_, sink), "flush",
            "launch read flush");
    }
  }

  std::optional<DeviceMemory> memory() override {
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(device_index_));
    size_t free = 0;
    size_t total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      cudaGetLastError();
      return std::nullopt;
    }
    return DeviceMemory{.free_bytes = free, .total_bytes = total};
  }

  void release_cached_memory() override {
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(device_index_));
    c10::cuda::CUDACachingAllocator::emptyCache();
  }

  std::optional<int> sm_clock_mhz() override { return read_cuda_sm_clock_mhz(device_index_); }

  std::optional<int> max_sm_clock_mhz() override {
    if (max_sm_clock_mhz_ <= 0) return std::nullopt;
    return max_sm_clock_mhz_;
  }

  std::unique_ptr<ScopedRngGuard> rng_guard() override {
    return cuda::make_cuda_rng_guard(device_index_);
  }

  bool healthy() override {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream(), &status) != cudaSuccess ||
        status != cudaStreamCaptureStatusNone) {
      return false;
    }
    cudaGetLastError();  // a non-sticky error from the failed attempt is not the question
    // Real work round trip: a sticky context error fails here.
    try {
      flush_cache(flush_bytes_, FlushMethod::kWrite);
      synchronize();
    } catch (const std::exception&) {
      return false;
    }
    return cudaGetLastError() == cudaSuccess;
  }

 private:
  uint64_t sink_offset() const { return (flush_bytes_ + 15) & ~uint64_t{15}; }

  cudaStream_t stream() const {
    return c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(device_index_)).stream();
  }

  int device_index_;
  int max_sm_clock_mhz_;
  uint64_t l2_bytes_ = 0;
  cuda::EventPool events_;
  void* flush_buffer_ = nullptr;
  uint64_t flush_bytes_ = 0;
  int flush_value_ = 0;
  volatile int* flags_ = nullptr;
  volatile int* device_flags_ = nullptr;
  std::optional<c10::cuda::CUDAStreamGuard> work_stream_;
};

}  // namespace

std::unique_ptr<DeviceApi> make_cuda_device_api(int device_index, const DeviceInfo& info) {
  return std::make_unique<CudaDeviceApi>(device_index, info);
}

}  // namespace caliber
