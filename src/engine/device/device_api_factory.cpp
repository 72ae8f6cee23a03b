#include "engine/device/device_api_factory.h"

#include "core/error.h"
#include "engine/device/device_driver.h"

namespace caliber {
namespace {

const DeviceDriver& driver_of(const BackendDescriptor& backend, bool generic) {
  const DeviceDriver* driver = driver_for(backend, generic);
  if (driver == nullptr) {
    throw_usage("--backend: '{}' cannot be driven by this build of caliber (accepted: {})",
                backend.name, drivable_backends());
  }
  return *driver;
}

}  // namespace

std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index,
                                           bool generic) {
  return driver_of(backend, generic).make_api(backend, device_index);
}

std::unique_ptr<DeviceRuntime> make_device_runtime(const BackendDescriptor& backend) {
  return driver_of(backend, false).make_runtime(backend);
}

bool has_native_device_api(const BackendDescriptor& backend) {
  return find_device_driver(backend.name) != nullptr;
}

}  // namespace caliber
