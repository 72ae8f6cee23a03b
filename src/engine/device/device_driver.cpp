#include "engine/device/device_driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/device/cuda/cuda_driver.h"
#include "engine/device/host/host_driver.h"

namespace caliber {

const std::vector<DeviceDriver>& device_drivers() {
  static const std::vector<DeviceDriver> drivers = [] {
    std::vector<DeviceDriver> out = {host_device_driver()};
    if (auto cuda = cuda_device_driver()) out.push_back(std::move(*cuda));
    return out;
  }();
  return drivers;
}

const DeviceDriver* find_device_driver(const std::string& backend) {
  for (const auto& driver : device_drivers()) {
    if (driver.backend == backend) return &driver;
  }
  return nullptr;
}

std::string drivable_backends() {
  std::vector<std::string> names;
  for (const auto& driver : device_drivers()) names.push_back(driver.backend);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace caliber
