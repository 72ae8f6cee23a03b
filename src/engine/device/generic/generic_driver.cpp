#include "engine/device/generic/generic_driver.h"

#include <utility>

#include "engine/device/generic/allocator_stats.h"
#include "engine/device/generic/generic_device_api.h"

namespace caliber {
namespace {

// The allocator of one device type through c10's DeviceAllocator; zeros where the backend
// registers none or leaves its statistics unimplemented.
class GenericRuntime final : public DeviceRuntime {
 public:
  explicit GenericRuntime(std::string torch_device_type) : type_(std::move(torch_device_type)) {}

  void reset_peak_memory(int device_index) override { reset_accelerator_peak(type_, device_index); }
  int64_t peak_memory_bytes(int device_index) override {
    auto use = accelerator_allocator_use(type_, device_index);
    return use ? use->peak_allocated_bytes : 0;
  }
  DeviceMemoryUse memory_in_use(int device_index) override {
    DeviceMemoryUse out;
    if (auto use = accelerator_allocator_use(type_, device_index)) {
      out.allocated_bytes = use->allocated_bytes;
      out.reserved_bytes = use->reserved_bytes;
    }
    return out;
  }
  void release_cached_memory() override { empty_accelerator_cache(type_); }
  void configure_gemm_tuner(TunerMode, const std::string&) override {}

 private:
  std::string type_;
};

}  // namespace

DeviceDriver generic_device_driver() {
  return DeviceDriver{
      .backend = "generic",
      .gemm_tuner = false,
      .any_accelerator = true,
      .make_api = [](const BackendDescriptor& backend,
                     int device_index) { return make_generic_device_api(backend, device_index); },
      .make_runtime =
          [](const BackendDescriptor& backend) {
            return std::unique_ptr<DeviceRuntime>(new GenericRuntime(backend.torch_device_type));
          },
      .runtime_version = [] { return std::string(); },
  };
}

}  // namespace caliber
