#include "backend/cuda_enumeration.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <map>
#include <mutex>

namespace caliber {
namespace {

// The few driver and NVML entry points caliber needs, by their C signatures; loading them at
// run time keeps the backend layer free of vendor headers and link dependencies.
using CUresult = int;
using CUdevice = int;
constexpr int kAttrClockRate = 13;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrMemoryClockRate = 36;
constexpr int kAttrL2CacheSize = 38;
constexpr int kAttrComputeMajor = 75;
constexpr int kAttrComputeMinor = 76;
constexpr unsigned kNvmlClockSm = 1;
constexpr unsigned kNvmlClockMem = 2;

struct CudaDriver {
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*driver_version)(int*) = nullptr;
  CUresult (*device_count)(int*) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*device_name)(char*, int, CUdevice) = nullptr;
  CUresult (*total_mem)(size_t*, CUdevice) = nullptr;
  CUresult (*attribute)(int*, int, CUdevice) = nullptr;
  CUresult (*pci_bus_id)(char*, int, CUdevice) = nullptr;
  bool loaded = false;
};

struct Nvml {
  using Device = void*;
  int (*init)() = nullptr;
  int (*by_pci)(const char*, Device*) = nullptr;
  int (*clock)(Device, unsigned, unsigned*) = nullptr;
  int (*max_clock)(Device, unsigned, unsigned*) = nullptr;
  int (*driver_version)(char*, unsigned) = nullptr;
  bool loaded = false;
};

template <typename F>
void bind(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
}

const CudaDriver& driver() {
  static CudaDriver d = [] {
    CudaDriver d;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == nullptr) return d;
    bind(lib, "cuInit", d.init);
    bind(lib, "cuDriverGetVersion", d.driver_version);
    bind(lib, "cuDeviceGetCount", d.device_count);
    bind(lib, "cuDeviceGet", d.device_get);
    bind(lib, "cuDeviceGetName", d.device_name);
    bind(lib, "cuDeviceTotalMem_v2", d.total_mem);
    bind(lib, "cuDeviceGetAttribute", d.attribute);
    bind(lib, "cuDeviceGetPCIBusId", d.pci_bus_id);
    d.loaded = d.init && d.device_count && d.device_get && d.device_name && d.total_mem &&
               d.attribute && d.init(0) == 0;
    return d;
  }();
  return d;
}

const Nvml& nvml() {
  static Nvml n = [] {
    Nvml n;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == nullptr) return n;
    bind(lib, "nvmlInit_v2", n.init);
    bind(lib, "nvmlDeviceGetHandleByPciBusId_v2", n.by_pci);
    bind(lib, "nvmlDeviceGetClockInfo", n.clock);
    bind(lib, "nvmlDeviceGetMaxClockInfo", n.max_clock);
    bind(lib, "nvmlSystemGetDriverVersion", n.driver_version);
    n.loaded = n.init && n.by_pci && n.clock && n.init() == 0;
    return n;
  }();
  return n;
}

int attribute(const CudaDriver& d, int attr, CUdevice dev) {
  int value = 0;
  return d.attribute(&value, attr, dev) == 0 ? value : 0;
}

// NVML numbers devices physically; CUDA numbers the visible ones. The PCI bus id joins them.
std::string bus_id(const CudaDriver& d, CUdevice dev) {
  char text[64] = {};
  if (d.pci_bus_id == nullptr || d.pci_bus_id(text, sizeof text, dev) != 0) return "";
  return text;
}

Nvml::Device nvml_handle(const std::string& pci) {
  const Nvml& n = nvml();
  Nvml::Device handle = nullptr;
  if (!n.loaded || pci.empty() || n.by_pci(pci.c_str(), &handle) != 0) return nullptr;
  return handle;
}

}  // namespace

std::vector<DeviceInfo> enumerate_cuda_devices() {
  const CudaDriver& d = driver();
  std::vector<DeviceInfo> out;
  int count = 0;
  if (!d.loaded || d.device_count(&count) != 0) return out;
  int version = 0;
  if (d.driver_version) d.driver_version(&version);
  std::string nvml_driver;
  if (nvml().loaded && nvml().driver_version) {
    char text[96] = {};
    if (nvml().driver_version(text, sizeof text) == 0) nvml_driver = text;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (d.device_get(&dev, i) != 0) continue;
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    d.device_name(name, sizeof name, dev);
    info.name = name;
    size_t bytes = 0;
    d.total_mem(&bytes, dev);
    info.total_memory_bytes = bytes;
    info.compute_units = attribute(d, kAttrMultiprocessorCount, dev);
    info.compute_capability = fmt::format("{}.{}", attribute(d, kAttrComputeMajor, dev),
                                          attribute(d, kAttrComputeMinor, dev));
    info.max_sm_clock_mhz = attribute(d, kAttrClockRate, dev) / 1000;
    info.memory_clock_mhz = attribute(d, kAttrMemoryClockRate, dev) / 1000;
    info.l2_cache_bytes = static_cast<uint64_t>(attribute(d, kAttrL2CacheSize, dev));
    info.pci_bus_id = bus_id(d, dev);
    info.driver_version =
        nvml_driver.empty()
            ? fmt::format("CUDA driver API {}.{}", version / 1000, (version % 1000) / 10)
            : fmt::format("{} (CUDA {}.{})", nvml_driver, version / 1000, (version % 1000) / 10);
    if (Nvml::Device h = nvml_handle(info.pci_bus_id)) {
      unsigned mhz = 0;
      if (nvml().clock(h, kNvmlClockSm, &mhz) == 0) info.sm_clock_mhz = static_cast<int>(mhz);
      if (nvml().max_clock && nvml().max_clock(h, kNvmlClockSm, &mhz) == 0) {
        info.max_sm_clock_mhz = static_cast<int>(mhz);
      }
      if (nvml().max_clock && nvml().max_clock(h, kNvmlClockMem, &mhz) == 0) {
        info.memory_clock_mhz = static_cast<int>(mhz);
      }
    }
    out.push_back(info);
  }
  return out;
}

std::optional<int> read_cuda_sm_clock_mhz(int device_index) {
  // The throttle guard reads the clock around every round of samples, tens of thousands of times
  // a screen: the handle is looked up (driver, PCI bus id, NVML) once per device and process.
  static std::mutex mutex;
  static std::map<int, Nvml::Device> handles;
  Nvml::Device h = nullptr;
  {
    std::lock_guard lock(mutex);
    auto found = handles.find(device_index);
    if (found == handles.end()) {
      const CudaDriver& d = driver();
      CUdevice dev = 0;
      if (d.loaded && d.device_get(&dev, device_index) == 0) h = nvml_handle(bus_id(d, dev));
      found = handles.emplace(device_index, h).first;
    }
    h = found->second;
  }
  unsigned mhz = 0;
  if (h == nullptr || nvml().clock(h, kNvmlClockSm, &mhz) != 0) return std::nullopt;
  return static_cast<int>(mhz);
}

}  // namespace caliber
