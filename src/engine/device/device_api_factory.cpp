#include "engine/device/device_api_factory.h"

#include "core/error.h"
#include "engine/device/device_driver.h"

namespace caliber {
namespace {

const DeviceDriver& driver_of(const BackendDescriptor& backend) {
  const DeviceDriver* driver = find_device_driver(backend.name);
  if (driver == nullptr) {
    throw_usage("--backend: '{}' cannot be driven by this build of caliber (accepted: {})",
                backend.name, drivable_backends());
  }
  return *driver;
}

}  // namespace

std::unique_ptr<DeviceApi> make_device_api(const BackendDescriptor& backend, int device_index) {
  return driver_of(backend).make_api(backend, device_index);
}

std::unique_ptr<DeviceRuntime> make_device_runtime(const BackendDescriptor& backend) {
  return driver_of(backend).make_runtime();
}

}  // namespace caliber
