#include "engine/device/host/host_driver.h"

#include "engine/device/host/host_device_api.h"

namespace caliber {
namespace {

class HostRuntime final : public DeviceRuntime {
 public:
  void reset_peak_memory(int) override {}
  int64_t peak_memory_bytes(int) override { return 0; }
  DeviceMemoryUse memory_in_use(int) override { return {}; }
  void release_cached_memory() override {}
  void configure_gemm_tuner(TunerMode, const std::string&) override {}
};

}  // namespace

DeviceDriver host_device_driver() {
  return DeviceDriver{
      .backend = "cpu",
      .gemm_tuner = false,
      .make_api = [](const BackendDescriptor&, int) { return make_host_device_api(); },
      .make_runtime = [] { return std::unique_ptr<DeviceRuntime>(new HostRuntime()); },
      .runtime_version = [] { return std::string(); },
  };
}

}  // namespace caliber
