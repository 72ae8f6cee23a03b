#include "engine/device/host/host_device_api.h"

#include <chrono>
#include <cstring>
#include <vector>

namespace caliber {
namespace {

class HostDeviceApi : public DeviceApi {
 public:
  std::string name() const override { return "host"; }
  bool has_device_events() const override { return false; }
  void synchronize() override {}

  double host_now_ms() const override {
    using Ms = std::chrono::duration<double, std::milli>;
    return Ms(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  std::vector<double> time_each(const Call& call, int calls, const Call& before_each) override {
    std::vector<double> samples;
    samples.reserve(calls);
    for (int i = 0; i < calls; ++i) {
      if (before_each) before_each();
      double start = host_now_ms();
      call();
      samples.push_back(host_now_ms() - start);
    }
    return samples;
  }

  std::vector<double> time_host(const Call& call, int calls, const Call& before_each) override {
    return time_each(call, calls, before_each);
  }

  std::unique_ptr<CapturedGraph> capture(const Call&, int) override {
    throw DeviceError("capture", "the host cannot capture graphs");
  }

  BatchOutcome time_batch(const Call&, int, double, const Call&) override {
    throw DeviceError("batch", "the host has no blocking kernel");
  }

  std::vector<CallActivities> kernel_activities_each(const Call&, int, const Call&) override {
    throw DeviceError("kernel", "the host has no kernel activity tracing");
  }

  void flush_cache(uint64_t bytes, FlushMethod method) override {
    constexpr size_t kFlushBytes = 512u << 20;  // larger than any server CPU's last-level cache
    const size_t want = bytes > 0 ? static_cast<size_t>(bytes) : kFlushBytes;
    if (flush_buffer_.size() != want) {
      flush_buffer_.assign(want, 0);
      flush_buffer_.shrink_to_fit();
    }
    if (method == FlushMethod::kWrite || method == FlushMethod::kWriteRead) {
      std::memset(flush_buffer_.data(), ++flush_value_, flush_buffer_.size());
    }
    if (method == FlushMethod::kRead || method == FlushMethod::kWriteRead) {
      // One byte per cache line is enough to bring the line in; the volatile sink keeps the loads.
      unsigned char folded = 0;
      for (size_t i = 0; i < flush_buffer_.size(); i += 64) folded ^= flush_buffer_[i];
      read_sink_ = folded;
    }
  }

  std::optional<int> sm_clock_mhz() override { return std::nullopt; }
  std::optional<int> max_sm_clock_mhz() override { return std::nullopt; }
  std::unique_ptr<ScopedRngGuard> rng_guard() override { return nullptr; }
  bool healthy() override { return true; }

 private:
  std::vector<unsigned char> flush_buffer_;
  unsigned char flush_value_ = 0;
  volatile unsigned char read_sink_ = 0;
};

}  // namespace

std::unique_ptr<DeviceApi> make_host_device_api() { return std::make_unique<HostDeviceApi>(); }

}  // namespace caliber
