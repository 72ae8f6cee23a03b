#include "engine/device/generic/accelerator_probe.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/Device.h>
#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <c10/util/Exception.h>
#include <pybind11/embed.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "backend/registry.h"
#include "core/error.h"
#include "engine/device/generic/device_type.h"
#include "engine/device/generic/python_graph.h"
#include "engine/provider/embedded_python.h"

namespace py = pybind11;

namespace caliber {
namespace {

// The cache size a backend's Python device module reports (torch.cuda's and ROCm's
// get_device_properties(i).L2_cache_size); 0 where it reports none.
uint64_t reported_l2_bytes(const std::string& type_name, int index) {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  try {
    py::object module = py::module_::import("torch").attr(type_name.c_str());
    if (!py::hasattr(module, "get_device_properties")) return 0;
    py::object props = module.attr("get_device_properties")(index);
    if (!py::hasattr(props, "L2_cache_size")) return 0;
    return props.attr("L2_cache_size").cast<uint64_t>();
  } catch (const py::error_already_set&) {
    return 0;
  }
}

AcceleratorFeatures run_probe(const BackendDescriptor& backend, int index) {
  AcceleratorFeatures f;
  const c10::DeviceType type = torch_device_type_of(backend);
  f.torch_device_type = c10::DeviceTypeName(type, /*lower_case=*/true);
  c10::impl::VirtualGuardImpl guard(type);
  f.device_count = guard.deviceCount();
  if (index >= f.device_count) {
    throw_usage("--device: index {} is not visible on backend {} ({} device(s) through torch)",
                index, backend.name, f.device_count);
  }
  const c10::Device device(type, static_cast<c10::DeviceIndex>(index));
  guard.setDevice(device);
  c10::Stream stream = guard.getStream(device);
  try {
    stream = guard.getStreamFromGlobalPool(device, /*isHighPriority=*/false);
    f.pool_stream = true;
  } catch (const c10::Error&) {
  }

  try {
    guard.synchronizeStream(stream);
    f.sync = SyncMethod::kStream;
  } catch (const c10::Error& stream_error) {
    try {
      guard.synchronizeDevice(device.index());
      f.sync = SyncMethod::kDevice;
    } catch (const c10::Error&) {
      f.sync = SyncMethod::kReadback;
      f.sync_detail = short_message(stream_error);
    }
  }

  try {
    c10::Event start(type, c10::EventFlag::BACKEND_DEFAULT);
    c10::Event end(type, c10::EventFlag::BACKEND_DEFAULT);
    start.record(stream);
    end.record(stream);
    end.synchronize();
    f.events = start.elapsedTime(end) >= 0;
  } catch (const c10::Error& e) {
    f.events_detail = short_message(e);
  }

  try {
    at::Tensor buffer = at::empty({64}, at::TensorOptions().device(device).dtype(at::kByte));
    buffer.fill_(1);
    f.fill = buffer.cpu().data_ptr<uint8_t>()[63] == 1;
  } catch (const c10::Error&) {
  }
  // After the allocation above: a caching allocator rejects statistics for a device it has not
  // allocated on yet.
  try {
    c10::getDeviceAllocator(type)->getDeviceStats(device.index());
    f.allocator_stats = true;
  } catch (const c10::Error&) {
  }

  for (const DeviceInfo& info : devices_of(backend)) {
    if (info.index == index && info.l2_cache_bytes > 0 && !backend.enumerated_by_torch) {
      f.l2_cache_bytes = info.l2_cache_bytes;
      f.l2_source = "the backend's runtime library";
    }
  }
  if (f.l2_cache_bytes == 0) {
    f.l2_cache_bytes = reported_l2_bytes(f.torch_device_type, index);
    f.l2_source = f.l2_cache_bytes > 0 ? "torch device properties" : "not reported by the backend";
  }
  // Twice the cache, as the CUDA path flushes; the documented default where it is unknown.
  f.flush_bytes = f.l2_cache_bytes > 0 ? std::max<uint64_t>(2 * f.l2_cache_bytes, 8u << 20)
                                       : kDefaultFlushBytes;

  GraphSupport graph = probe_graph_support(f.torch_device_type, index);
  f.graph = graph.works;
  f.graph_detail = graph.detail;
  return f;
}

}  // namespace

const AcceleratorFeatures& probe_accelerator(const BackendDescriptor& backend, int device_index) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, AcceleratorFeatures> probed;
  std::lock_guard lock(mutex);
  auto key = std::make_pair(backend.name, device_index);
  auto it = probed.find(key);
  if (it == probed.end()) {
    try {
      it = probed.emplace(key, run_probe(backend, device_index)).first;
    } catch (const c10::Error& e) {
      throw_usage(
          "--backend: torch cannot drive backend {} through its device-generic runtime "
          "({})",
          backend.name, short_message(e));
    }
  }
  return it->second;
}

}  // namespace caliber
