#include "engine/device/generic/allocator_stats.h"

#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/Device.h>

namespace caliber {
namespace {

c10::DeviceAllocator* allocator_of(const std::string& torch_device_type) {
  if (torch_device_type.empty() || torch_device_type == "cpu") return nullptr;
  try {
    return c10::getDeviceAllocator(c10::Device(torch_device_type).type());
  } catch (const c10::Error&) {
    return nullptr;
  }
}

}  // namespace

std::optional<AllocatorUse> accelerator_allocator_use(const std::string& torch_device_type,
                                                      int device_index) {
  c10::DeviceAllocator* allocator = allocator_of(torch_device_type);
  if (allocator == nullptr) return std::nullopt;
  try {
    auto stats = allocator->getDeviceStats(static_cast<c10::DeviceIndex>(device_index));
    const auto all = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    return AllocatorUse{stats.allocated_bytes[all].current, stats.reserved_bytes[all].current,
                        stats.allocated_bytes[all].peak};
  } catch (const c10::Error&) {
    return std::nullopt;
  }
}

std::optional<std::pair<uint64_t, uint64_t>> accelerator_memory_info(
    const std::string& torch_device_type, int device_index) {
  c10::DeviceAllocator* allocator = allocator_of(torch_device_type);
  if (allocator == nullptr) return std::nullopt;
  try {
    auto [free, total] = allocator->getMemoryInfo(static_cast<c10::DeviceIndex>(device_index));
    return std::make_pair(static_cast<uint64_t>(free), static_cast<uint64_t>(total));
  } catch (const c10::Error&) {
    return std::nullopt;
  }
}

void reset_accelerator_peak(const std::string& torch_device_type, int device_index) {
  c10::DeviceAllocator* allocator = allocator_of(torch_device_type);
  if (allocator == nullptr) return;
  try {
    allocator->resetPeakStats(static_cast<c10::DeviceIndex>(device_index));
  } catch (const c10::Error&) {
  }
}

void empty_accelerator_cache(const std::string& torch_device_type) {
  c10::DeviceAllocator* allocator = allocator_of(torch_device_type);
  if (allocator == nullptr) return;
  try {
    allocator->emptyCache();
  } catch (const c10::Error&) {
  }
}

}  // namespace caliber
