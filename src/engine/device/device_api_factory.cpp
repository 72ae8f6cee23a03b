#include "engine/device/device_api_factory.h"

#include "engine/device/generic/generic_device_api.h"
#include "engine/device/host/host_device_api.h"

#ifdef CALIBER_HAVE_CUDA
#include "engine/device/cuda/cuda_device_api.h"
#endif

namespace caliber {

bool has_native_device_api(const BackendDescriptor& backend) {
  if (backend.name == "cpu") return true;
#ifdef CALIBER_HAVE_CUDA
  if (backend.name == "cuda") return true;
#endif
  return false;
}

std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index,
                                           bool generic) {
  if (backend.name == "cpu") return make_host_device_api();
#ifdef CALIBER_HAVE_CUDA
  if (backend.name == "cuda" && !generic) {
    DeviceInfo info;
    for (const DeviceInfo& device : backend.enumerate()) {
      if (device.index == device_index) info = device;
    }
    return make_cuda_device_api(device_index, info);
  }
#endif
  return make_generic_device_api(backend, device_index);
}

}  // namespace caliber
