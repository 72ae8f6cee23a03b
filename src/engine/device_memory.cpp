#include "engine/device_memory.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include "engine/device/generic/allocator_stats.h"

#ifdef CALIBER_HAVE_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace caliber {

void reset_peak_device_memory([[maybe_unused]] const std::string& torch_device_type,
                              [[maybe_unused]] int device_index) {
#ifdef CALIBER_HAVE_CUDA
  if (torch_device_type == "cuda") {
    c10::cuda::CUDACachingAllocator::resetPeakStats(device_index);
    return;
  }
#endif
  reset_accelerator_peak(torch_device_type, device_index);
}

int64_t peak_device_memory_bytes([[maybe_unused]] const std::string& torch_device_type,
                                 [[maybe_unused]] int device_index) {
#ifdef CALIBER_HAVE_CUDA
  if (torch_device_type == "cuda") {
    auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device_index);
    return stats.allocated_bytes[static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE)]
        .peak;
  }
#endif
  if (auto use = accelerator_allocator_use(torch_device_type, device_index)) {
    return use->peak_allocated_bytes;
  }
  return 0;
}

DeviceMemoryUse device_memory_in_use([[maybe_unused]] const std::string& torch_device_type,
                                     [[maybe_unused]] int device_index) {
  DeviceMemoryUse use;
#ifdef CALIBER_HAVE_CUDA
  if (torch_device_type == "cuda") {
    auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device_index);
    const auto all = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    use.allocated_bytes = stats.allocated_bytes[all].current;
    use.reserved_bytes = stats.reserved_bytes[all].current;
    return use;
  }
#endif
  if (auto generic = accelerator_allocator_use(torch_device_type, device_index)) {
    use.allocated_bytes = generic->allocated_bytes;
    use.reserved_bytes = generic->reserved_bytes;
  }
  return use;
}

void release_cached_device_memory([[maybe_unused]] const std::string& torch_device_type) {
#ifdef CALIBER_HAVE_CUDA
  if (torch_device_type == "cuda") {
    c10::cuda::CUDACachingAllocator::emptyCache();
    return;
  }
#endif
  empty_accelerator_cache(torch_device_type);
}

void initialize_device_allocator(const std::string& torch_device) {
  at::empty({1}, at::TensorOptions().device(torch_device));
}

}  // namespace caliber
