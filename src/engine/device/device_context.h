#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "backend/backend_descriptor.h"
#include "backend/device_info.h"
#include "engine/device/device_runtime.h"
#include "engine/device_peaks.h"
#include "timing/device_api.h"

namespace caliber {

// The one owner of the device a run measures on: which backend and index it is, its torch
// device string, the DeviceApi the timers use, the runtime's memory statistics and GEMM tuner,
// and the measured peaks. Everything else asks it, instead of carrying a descriptor, an index,
// a type string and an API of its own.
class DeviceContext {
 public:
  // Opens `device_index` of `backend` (its API and runtime from the backend's driver) and makes
  // the first allocation there: torch's caching allocator rejects statistics calls for a device
  // until then ("Invalid device argument"). `generic_api`: the DeviceApi is PyTorch's
  // device-generic one even where the backend has glue of its own (--device-api generic).
  DeviceContext(const BackendDescriptor& backend, int device_index, DeviceInfo info,
                bool generic_api = false);

  const BackendDescriptor& backend() const { return *backend_; }
  int index() const { return index_; }
  const DeviceInfo& info() const { return info_; }
  const std::string& torch_device() const { return torch_device_; }  // "cuda:0", "cpu"
  DeviceApi& api() { return *api_; }

  void reset_peak_memory() { runtime_->reset_peak_memory(index_); }
  int64_t peak_memory_bytes() { return runtime_->peak_memory_bytes(index_); }
  DeviceMemoryUse memory_in_use() { return runtime_->memory_in_use(index_); }
  void release_cached_memory() { runtime_->release_cached_memory(); }

  // The peaks cached in `cache_file` for this device, else measured (a few seconds) and cached.
  const DevicePeaks& load_or_measure_peaks(const std::filesystem::path& cache_file);
  const DevicePeaks* peaks() const { return peaks_ ? &*peaks_ : nullptr; }

  void configure_gemm_tuner(TunerMode mode, const std::string& results_file) {
    runtime_->configure_gemm_tuner(mode, results_file);
  }

 private:
  const BackendDescriptor* backend_;
  int index_;
  DeviceInfo info_;
  std::string torch_device_;
  std::unique_ptr<DeviceApi> api_;
  std::unique_ptr<DeviceRuntime> runtime_;
  std::optional<DevicePeaks> peaks_;
};

// The context of `device_index` of `backend` that this process opened first, opened now if none
// is: a worker measures op after op on one device, and opening it again for each op (the
// timers' stream, host-mapped flags, the runtime's first allocation) cost an op milliseconds.
// Nothing a measurement reads is kept in it from one run to the next but its flush buffer; each
// run loads its own peaks and sets its own tuner. Kept until the process exits (never destroyed:
// a context freed during static destruction would call into a runtime already torn down).
DeviceContext& shared_device_context(const BackendDescriptor& backend, int device_index,
                                     const DeviceInfo& info, bool generic_api = false);

// "cuda:0" for an accelerator, "cpu" for the host.
std::string torch_device_of(const BackendDescriptor& backend, int device_index);

// The runtime version a backend's driver reports without a device ("CUDA runtime 13.0"); empty
// when this build has no driver for it or the driver does not know.
std::string device_runtime_version(const BackendDescriptor& backend);

// The usage checks of the GEMM tuner, touching no device: the backend must have one, and replay
// needs its results file. `caliber run` makes them before it creates the run directory.
void check_gemm_tuner(TunerMode mode, const std::string& results_file,
                      const BackendDescriptor& backend);

}  // namespace caliber
