#include "backend/other_enumeration.h"

#include <dlfcn.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace caliber {
namespace {

// ROCm's HIP runtime and MUSA's driver API mirror CUDA's: count, name, total memory.
struct CountNameMemory {
  const char* library;
  const char* init_symbol;  // may be null
  const char* count_symbol;
  const char* name_symbol;
  const char* memory_symbol;
};

std::vector<DeviceInfo> enumerate_with(const CountNameMemory& api) {
  std::vector<DeviceInfo> out;
  void* lib = dlopen(api.library, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return out;
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  using Name = int (*)(char*, int, int);
  using Memory = int (*)(size_t*, int);
  if (api.init_symbol != nullptr) {
    auto init = reinterpret_cast<Init>(dlsym(lib, api.init_symbol));
    if (init == nullptr || init(0) != 0) return out;
  }
  auto count_fn = reinterpret_cast<Count>(dlsym(lib, api.count_symbol));
  auto name_fn = reinterpret_cast<Name>(dlsym(lib, api.name_symbol));
  auto memory_fn = reinterpret_cast<Memory>(dlsym(lib, api.memory_symbol));
  int count = 0;
  if (count_fn == nullptr || count_fn(&count) != 0) return out;
  for (int i = 0; i < count; ++i) {
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    if (name_fn != nullptr && name_fn(name, sizeof name, i) == 0) info.name = name;
    size_t bytes = 0;
    if (memory_fn != nullptr && memory_fn(&bytes, i) == 0) info.total_memory_bytes = bytes;
    out.push_back(info);
  }
  return out;
}

}  // namespace

std::vector<DeviceInfo> enumerate_rocm_devices() {
  return enumerate_with(
      {"libamdhip64.so", nullptr, "hipGetDeviceCount", "hipDeviceGetName", "hipDeviceTotalMem"});
}

std::vector<DeviceInfo> enumerate_musa_devices() {
  return enumerate_with(
      {"libmusa.so", "muInit", "muDeviceGetCount", "muDeviceGetName", "muDeviceTotalMem"});
}

std::vector<DeviceInfo> enumerate_ascend_devices() {
  std::vector<DeviceInfo> out;
  void* lib = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return out;
  using Init = int (*)(const char*);
  using Count = int (*)(uint32_t*);
  using Soc = const char* (*)();
  auto init = reinterpret_cast<Init>(dlsym(lib, "aclInit"));
  auto count_fn = reinterpret_cast<Count>(dlsym(lib, "aclrtGetDeviceCount"));
  auto soc = reinterpret_cast<Soc>(dlsym(lib, "aclrtGetSocName"));
  uint32_t count = 0;
  if (init == nullptr || count_fn == nullptr) return out;
  init(nullptr);
  if (count_fn(&count) != 0) return out;
  for (uint32_t i = 0; i < count; ++i) {
    DeviceInfo info;
    info.index = static_cast<int>(i);
    info.name = soc != nullptr && soc() != nullptr ? soc() : "Ascend NPU";
    out.push_back(info);
  }
  return out;
}

std::vector<DeviceInfo> enumerate_host_cpu() {
  DeviceInfo info;
  info.index = 0;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) info.name = line.substr(colon + 2);
      break;
    }
  }
  if (info.name.empty()) info.name = "host CPU";
  info.compute_units = static_cast<int>(std::thread::hardware_concurrency());
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    info.total_memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  }
  return {info};
}

}  // namespace caliber
