#include "engine/device/generic/torch_device_enumerator.h"

#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <pybind11/embed.h>

#include "backend/registry.h"
#include "backend/torch_enumeration.h"
#include "core/error.h"
#include "engine/device/generic/backend_loader.h"
#include "engine/device/generic/device_type.h"
#include "engine/provider/embedded_python.h"

namespace py = pybind11;

namespace caliber {
namespace {

// torch.<type>.get_device_name(i) where the device module has it, else its properties' name.
std::string device_name(const std::string& type_name, int index) {
  py::gil_scoped_acquire gil;
  try {
    py::object module = py::module_::import("torch").attr(type_name.c_str());
    if (py::hasattr(module, "get_device_name")) {
      return module.attr("get_device_name")(index).cast<std::string>();
    }
    if (py::hasattr(module, "get_device_properties")) {
      return module.attr("get_device_properties")(index).attr("name").cast<std::string>();
    }
  } catch (const py::error_already_set&) {
  }
  return type_name + " device (the backend reports no name)";
}

std::vector<DeviceInfo> count_devices(const std::string& backend_name) {
  const BackendDescriptor& backend = find_backend("--backend", backend_name);
  load_backend(backend, requested_backend_library());
  const c10::DeviceType type = torch_device_type_of(backend);
  const std::string type_name = c10::DeviceTypeName(type, /*lower_case=*/true);
  std::vector<DeviceInfo> out;
  try {
    c10::impl::VirtualGuardImpl guard(type);
    const int count = guard.deviceCount();
    for (int i = 0; i < count; ++i) {
      DeviceInfo info;
      info.index = i;
      info.name = device_name(type_name, i);
      try {
        info.total_memory_bytes =
            c10::getDeviceAllocator(type)->getMemoryInfo(static_cast<c10::DeviceIndex>(i)).second;
      } catch (const c10::Error&) {
        // Not every allocator reports the device's memory.
      }
      out.push_back(info);
    }
  } catch (const c10::Error& e) {
    throw_usage("--backend: torch cannot count the devices of backend {} ({})", backend.name,
                short_message(e));
  }
  return out;
}

}  // namespace

void install_torch_device_enumerator() { set_torch_enumerator(count_devices); }

}  // namespace caliber
