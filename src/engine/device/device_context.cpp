#include "engine/device/device_context.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "core/error.h"
#include "engine/device/device_api_factory.h"
#include "engine/device/device_driver.h"

namespace caliber {

DeviceContext::DeviceContext(const BackendDescriptor& backend, int device_index, DeviceInfo info,
                             bool generic_api)
    : backend_(&backend),
      index_(device_index),
      info_(std::move(info)),
      torch_device_(torch_device_of(backend, device_index)),
      api_(make_device_api(backend, device_index, generic_api)),
      runtime_(make_device_runtime(backend)) {
  at::empty({1}, at::TensorOptions().device(torch_device_));
}

const DevicePeaks& DeviceContext::load_or_measure_peaks(const std::filesystem::path& cache_file) {
  peaks_ = caliber::load_or_measure_peaks(*api_, *runtime_, torch_device_, info_.name, cache_file);
  return *peaks_;
}

DeviceContext& shared_device_context(const BackendDescriptor& backend, int device_index,
                                     const DeviceInfo& info, bool generic_api) {
  using Key = std::tuple<std::string, int, std::string, bool>;
  static std::mutex mutex;
  static auto* contexts = new std::map<Key, std::unique_ptr<DeviceContext>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = (*contexts)[Key{backend.name, device_index, info.name, generic_api}];
  if (!slot) slot = std::make_unique<DeviceContext>(backend, device_index, info, generic_api);
  return *slot;
}

std::string torch_device_of(const BackendDescriptor& backend, int device_index) {
  if (backend.torch_device_type == "cpu") return "cpu";
  return fmt::format("{}:{}", backend.torch_device_type, device_index);
}

std::string device_runtime_version(const BackendDescriptor& backend) {
  const DeviceDriver* driver = find_device_driver(backend.name);
  return driver != nullptr ? driver->runtime_version() : "";
}

void check_gemm_tuner(TunerMode mode, const std::string& results_file,
                      const BackendDescriptor& backend) {
  if (mode == TunerMode::kOff) return;
  const DeviceDriver* driver = find_device_driver(backend.name);
  if (driver == nullptr || !driver->gemm_tuner) {
    throw_usage(
        "--tuner: '{}' needs a backend with a GEMM tuner (PyTorch TunableOp), which {} lacks in "
        "this build; accepted here: off",
        to_string(mode), backend.name);
  }
  if (mode == TunerMode::kReplay && !std::filesystem::exists(results_file)) {
    throw_usage(
        "--tuner-file: '{}' does not exist (replay needs a TunableOp results file from "
        "a --tuner record run)",
        results_file);
  }
}

}  // namespace caliber
