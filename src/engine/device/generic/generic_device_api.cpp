#include "engine/device/generic/generic_device_api.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/max.h>
#include <c10/core/Device.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <optional>

#include "engine/device/generic/accelerator_probe.h"
#include "engine/device/generic/allocator_stats.h"
#include "engine/device/generic/backend_loader.h"
#include "engine/device/generic/device_type.h"
#include "engine/device/generic/event_timer.h"
#include "engine/device/generic/python_graph.h"

namespace caliber {
namespace {

// One work stream per device for the whole process, as the CUDA path keeps: a caching allocator
// reuses a freed block only on the stream it was allocated on.
c10::Stream work_stream(const c10::impl::VirtualGuardImpl& guard, c10::Device device,
                        bool from_pool) {
  static std::map<std::pair<int, int>, c10::Stream> streams;
  auto key = std::make_pair(static_cast<int>(device.type()), static_cast<int>(device.index()));
  auto it = streams.find(key);
  if (it == streams.end()) {
    c10::Stream stream =
        from_pool ? guard.getStreamFromGlobalPool(device, false) : guard.getStream(device);
    it = streams.emplace(key, stream).first;
  }
  return it->second;
}

class GenericDeviceApi : public DeviceApi {
 public:
  GenericDeviceApi(const BackendDescriptor& backend, int device_index)
      : features_(probe_accelerator(backend, device_index)),
        guard_(torch_device_type_of(backend)),
        device_(guard_.type(), static_cast<c10::DeviceIndex>(device_index)),
        stream_(work_stream(guard_, device_, features_.pool_stream)),
        timer_(stream_) {
    guard_.setDevice(device_);
    // Everything from here on (inputs, timed calls, captures) runs on the work stream; a
    // backend without a stream pool keeps working on its current stream.
    if (features_.pool_stream) stream_guard_.emplace(stream_);
  }

  std::string name() const override {
    return fmt::format("{}:{} (generic)", features_.torch_device_type, device_.index());
  }

  void synchronize() override {
    runtime_step("synchronize", [&] {
      switch (features_.sync) {
        case SyncMethod::kStream:
          guard_.synchronizeStream(stream_);
          break;
        case SyncMethod::kDevice:
          guard_.synchronizeDevice(device_.index());
          break;
        case SyncMethod::kReadback:
          readback();
          break;
      }
    });
  }

  double host_now_ms() const override {
    using Ms = std::chrono::duration<double, std::milli>;
    return Ms(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  bool has_device_events() const override { return features_.events; }

  std::vector<double> time_each(const Call& call, int calls, const Call& before_each) override {
    // Without events (see has_device_events) only warmups get here: timed from the host.
    if (!features_.events) return time_host(call, calls, before_each);
    return timer_.time_each(call, calls, before_each, "direct");
  }

  std::unique_ptr<CapturedGraph> capture(const Call& call, int calls_per_graph) override {
    if (!features_.graph) throw DeviceError("capture", features_.graph_detail);
    return capture_python_graph(features_.torch_device_type, call, calls_per_graph, timer_);
  }

  BatchOutcome time_batch(const Call&, int, double, const Call&) override {
    throw DeviceError("batch",
                      "the generic device API has no blocking kernel to queue calls behind");
  }

  std::vector<CallActivities> kernel_activities_each(const Call&, int, const Call&) override {
    throw DeviceError("kernel", "the generic device API has no kernel activity tracing");
  }

  void flush_cache(uint64_t bytes, FlushMethod method) override {
    const uint64_t want = bytes > 0 ? bytes : features_.flush_bytes;
    runtime_step("flush", [&] {
      if (!flush_buffer_.defined() || static_cast<uint64_t>(flush_buffer_.numel()) != want) {
        flush_buffer_ = at::Tensor();
        flush_buffer_ = at::empty({static_cast<int64_t>(want)},
                                  at::TensorOptions().device(device_).dtype(at::kByte));
        flush_buffer_.fill_(0);  // defined contents for a read-only flush
      }
      if (method == FlushMethod::kWrite || method == FlushMethod::kWriteRead) {
        flush_value_ ^= 1;
        flush_buffer_.fill_(flush_value_);
      }
      if (method == FlushMethod::kRead || method == FlushMethod::kWriteRead) {
        // A reduction reads every byte into a one-element result: the runtime's own kernel
        // does what the CUDA glue's read kernel does, with no vendor code here. `max` rather
        // than `sum` or `amax`: the out-of-tree backends tested (torch_opencl) implement it.
        flush_sink_ = at::max(flush_buffer_);
      }
    });
  }

  std::optional<DeviceMemory> memory() override {
    auto info = accelerator_memory_info(features_.torch_device_type, device_.index());
    if (!info) return std::nullopt;
    return DeviceMemory{.free_bytes = info->first, .total_bytes = info->second};
  }

  void release_cached_memory() override { empty_accelerator_cache(features_.torch_device_type); }

  std::optional<int> sm_clock_mhz() override { return std::nullopt; }
  std::optional<int> max_sm_clock_mhz() override { return std::nullopt; }
  std::unique_ptr<ScopedRngGuard> rng_guard() override { return nullptr; }

  bool healthy() override {
    try {
      synchronize();
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

 private:
  // Reading one element back returns only after the work queued before it on the stream.
  void readback() {
    if (!sync_flag_.defined()) {
      sync_flag_ = at::empty({1}, at::TensorOptions().device(device_).dtype(at::kByte));
    }
    sync_flag_.fill_(0);
    (void)sync_flag_.cpu();
  }

  const AcceleratorFeatures& features_;
  c10::impl::VirtualGuardImpl guard_;
  c10::Device device_;
  c10::Stream stream_;
  EventTimer timer_;
  std::optional<c10::StreamGuard> stream_guard_;
  at::Tensor flush_buffer_;
  at::Tensor flush_sink_;  // the read flush's result, kept so that nothing is freed mid-queue
  at::Tensor sync_flag_;
  int flush_value_ = 0;
};

}  // namespace

std::unique_ptr<DeviceApi> make_generic_device_api(const BackendDescriptor& backend,
                                                   int device_index) {
  load_backend(backend, requested_backend_library());
  return std::make_unique<GenericDeviceApi>(backend, device_index);
}

}  // namespace caliber
