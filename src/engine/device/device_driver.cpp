#include "engine/device/device_driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/device/cuda/cuda_driver.h"
#include "engine/device/generic/generic_driver.h"
#include "engine/device/host/host_driver.h"

namespace caliber {

const std::vector<DeviceDriver>& device_drivers() {
  static const std::vector<DeviceDriver> drivers = [] {
    std::vector<DeviceDriver> out = {host_device_driver()};
    if (auto cuda = cuda_device_driver()) out.push_back(std::move(*cuda));
    out.push_back(generic_device_driver());
    return out;
  }();
  return drivers;
}

const DeviceDriver* find_device_driver(const std::string& backend) {
  for (const auto& driver : device_drivers()) {
    if (!driver.any_accelerator && driver.backend == backend) return &driver;
  }
  return nullptr;
}

const DeviceDriver* driver_for(const BackendDescriptor& backend, bool generic) {
  const DeviceDriver* own = find_device_driver(backend.name);
  if (own != nullptr && !generic) return own;
  if (backend.torch_device_type == "cpu") return own;
  for (const auto& driver : device_drivers()) {
    if (driver.any_accelerator) return &driver;
  }
  return nullptr;
}

std::string drivable_backends() {
  std::vector<std::string> names;
  for (const auto& driver : device_drivers()) names.push_back(driver.backend);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace caliber
