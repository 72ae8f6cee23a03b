#pragma once

#include <cstdint>
#include <string>

namespace caliber {

// One visible device as the backend's runtime library reports it (no torch involved).
struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  uint64_t total_memory_bytes = 0;
  int compute_units = 0;  // SMs, CUs, AI cores
  std::string compute_capability;
  int sm_clock_mhz = 0;  // current, where the backend can read it
  int max_sm_clock_mhz = 0;
  int memory_clock_mhz = 0;
  uint64_t l2_cache_bytes = 0;
  std::string driver_version;
  std::string runtime_version;
};

}  // namespace caliber
