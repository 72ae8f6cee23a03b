#pragma once

#include <cstdint>
#include <string>

namespace caliber {

// Device memory held by torch's caching allocator, so each row reports its peak and a long
// sweep can return what it cached between ops instead of growing.
void reset_peak_device_memory(const std::string& torch_device_type, int device_index);
int64_t peak_device_memory_bytes(const std::string& torch_device_type, int device_index);
void release_cached_device_memory(const std::string& torch_device_type);
// Makes the first allocation on `torch_device` ("cuda:0"), which initialises torch's caching
// allocator: its statistics calls reject the device until then ("Invalid device argument").
void initialize_device_allocator(const std::string& torch_device);
// What torch's caching allocator holds now: allocated to live tensors, and reserved from the
// device (allocated plus cached). Both stay flat from op to op in a sweep that leaks nothing.
struct DeviceMemoryUse {
  int64_t allocated_bytes = 0;
  int64_t reserved_bytes = 0;
};
DeviceMemoryUse device_memory_in_use(const std::string& torch_device_type, int device_index);

}  // namespace caliber
