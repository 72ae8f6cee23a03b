#include "engine/device/generic/device_type.h"

#include <c10/core/Device.h>

#include "core/error.h"

namespace caliber {

c10::DeviceType torch_device_type_of(const BackendDescriptor& backend) {
  try {
    return c10::Device(backend.torch_device_type).type();
  } catch (const c10::Error& e) {
    throw_usage("--backend: torch does not know the device type '{}' of backend {} ({})",
                backend.torch_device_type, backend.name, short_message(e));
  }
}

std::string short_message(const c10::Error& error) {
  std::string text = error.what_without_backtrace();
  auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

}  // namespace caliber
