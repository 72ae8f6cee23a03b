#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace caliber {

// The device allocator's statistics through c10's device-generic DeviceAllocator, for any
// accelerator torch drives (the allocator of `torch_device_type`, e.g. "opencl"). Each returns
// nothing (or does nothing) where the backend registers no DeviceAllocator or its statistics
// are not implemented: peak memory then reads 0, as on the host.
struct AllocatorUse {
  int64_t allocated_bytes = 0;
  int64_t reserved_bytes = 0;
  int64_t peak_allocated_bytes = 0;
};
std::optional<AllocatorUse> accelerator_allocator_use(const std::string& torch_device_type,
                                                      int device_index);
// The device's free and total bytes (DeviceAllocator::getMemoryInfo), where the backend
// implements it.
std::optional<std::pair<uint64_t, uint64_t>> accelerator_memory_info(
    const std::string& torch_device_type, int device_index);
void reset_accelerator_peak(const std::string& torch_device_type, int device_index);
void empty_accelerator_cache(const std::string& torch_device_type);

}  // namespace caliber
