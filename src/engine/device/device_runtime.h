#pragma once

#include <cstdint>
#include <string>

#include "core/caliber_options.h"

namespace caliber {

// What torch's caching allocator holds: allocated to live tensors, and reserved from the device
// (allocated plus cached). Both stay flat from op to op in a sweep that leaks nothing.
struct DeviceMemoryUse {
  int64_t allocated_bytes = 0;
  int64_t reserved_bytes = 0;
};

// The parts of torch's runtime for one device kind that the engine uses besides timing: the
// caching allocator's statistics (each row reports its peak; a long sweep returns what it cached
// between ops instead of growing) and the GEMM tuner (PyTorch TunableOp). A device without them
// answers zeros and refuses the tuner.
class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;

  virtual void reset_peak_memory(int device_index) = 0;
  virtual int64_t peak_memory_bytes(int device_index) = 0;
  virtual DeviceMemoryUse memory_in_use(int device_index) = 0;
  virtual void release_cached_memory() = 0;

  // record: tune every new GEMM and append the results to `results_file` as they are found;
  // replay: load `results_file` and never tune; off: the tuner disabled. check_gemm_tuner() has
  // been made; a replay file the tuner rejects is a usage error.
  virtual void configure_gemm_tuner(TunerMode mode, const std::string& results_file) = 0;
};

}  // namespace caliber
