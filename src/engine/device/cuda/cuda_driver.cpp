#include "engine/device/cuda/cuda_driver.h"

#ifdef CALIBER_HAVE_CUDA
#include <ATen/cuda/tunable/Tunable.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "core/error.h"
#include "engine/device/cuda/cuda_device_api.h"
#endif

namespace caliber {

#ifdef CALIBER_HAVE_CUDA
namespace {

class CudaRuntime final : public DeviceRuntime {
 public:
  void reset_peak_memory(int device_index) override {
    c10::cuda::CUDACachingAllocator::resetPeakStats(device_index);
  }

  int64_t peak_memory_bytes(int device_index) override {
    auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device_index);
    return stats.allocated_bytes[kAll].peak;
  }

  DeviceMemoryUse memory_in_use(int device_index) override {
    auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device_index);
    return {stats.allocated_bytes[kAll].current, stats.reserved_bytes[kAll].current};
  }

  void release_cached_memory() override { c10::cuda::CUDACachingAllocator::emptyCache(); }

  void configure_gemm_tuner(TunerMode mode, const std::string& results_file) override {
    auto* context = at::cuda::tunable::getTuningContext();
    if (mode == TunerMode::kOff) {
      context->EnableTunableOp(false);
      return;
    }
    context->EnableTunableOp(true);
    context->SetFilename(results_file);
    if (mode == TunerMode::kRecord) {
      context->EnableTuning(true);
    } else {
      context->EnableTuning(false);
      if (!context->ReadFile(results_file)) {
        throw_usage(
            "--tuner-file: '{}' was rejected by TunableOp (another torch or library "
            "version wrote it?)",
            results_file);
      }
    }
  }

 private:
  static constexpr size_t kAll = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
};

std::string cuda_runtime_version() {
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) return "";
  return fmt::format("CUDA runtime {}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace

std::optional<DeviceDriver> cuda_device_driver() {
  return DeviceDriver{
      .backend = "cuda",
      .gemm_tuner = true,
      .make_api =
          [](const BackendDescriptor& backend, int device_index) {
            DeviceInfo info;
            for (const DeviceInfo& device : backend.enumerate()) {
              if (device.index == device_index) info = device;
            }
            return make_cuda_device_api(device_index, info);
          },
      .make_runtime = [] { return std::unique_ptr<DeviceRuntime>(new CudaRuntime()); },
      .runtime_version = cuda_runtime_version,
  };
}
#else
std::optional<DeviceDriver> cuda_device_driver() { return std::nullopt; }
#endif

}  // namespace caliber
