#include "engine/device/device_api_factory.h"

#include "core/error.h"
#include "engine/device/host/host_device_api.h"

#ifdef CALIBER_HAVE_CUDA
#include "engine/device/cuda/cuda_device_api.h"
#endif

namespace caliber {
namespace {

#ifdef CALIBER_HAVE_CUDA
constexpr const char* kDrivableBackends = "cpu, cuda";
#else
constexpr const char* kDrivableBackends = "cpu";
#endif

}  // namespace

std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index) {
  if (backend.name == "cpu") return make_host_device_api();
#ifdef CALIBER_HAVE_CUDA
  if (backend.name == "cuda") {
    DeviceInfo info;
    for (const DeviceInfo& device : backend.enumerate()) {
      if (device.index == device_index) info = device;
    }
    return make_cuda_device_api(device_index, info);
  }
#endif
  throw_usage("--backend: '{}' cannot be driven by this build of caliber (accepted: {})",
              backend.name, kDrivableBackends);
}

}  // namespace caliber
