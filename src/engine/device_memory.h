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
// Resident set of this process now (host memory), from /proc.
int64_t host_resident_bytes();

}  // namespace caliber
