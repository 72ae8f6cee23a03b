#include "engine/device_peaks.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/run_identity.h"
#include "core/stats.h"

namespace caliber {
namespace {

std::optional<DevicePeaks> read_cache(const std::filesystem::path& file,
                                      const std::string& device_name) {
  if (file.empty() || !std::filesystem::exists(file)) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(read_file(file));
    if (j.value("device", "") != device_name) return std::nullopt;
    return DevicePeaks{j.at("device"), j.at("bandwidth_gbps"), j.at("matrix_tflops"),
                       j.at("matrix_dtype"), j.value("measured_at", "")};
  } catch (const std::exception&) {
    return std::nullopt;  // a stale or torn cache is measured again
  }
}

double median_ms(DeviceApi& device, const Call& call, int calls) {
  device.time_each(call, 2, [] {});  // warm up: allocation, handles, clocks
  return median(device.time_each(call, calls, [] {}));
}

}  // namespace

DevicePeaks load_or_measure_peaks(DeviceApi& device, DeviceRuntime& runtime,
                                  const std::string& torch_device, const std::string& device_name,
                                  const std::filesystem::path& cache_file) {
  if (auto cached = read_cache(cache_file, device_name)) return *cached;
  bool host = torch_device == "cpu";
  auto options = at::TensorOptions().device(torch_device);

  DevicePeaks peaks;
  peaks.device = device_name;
  peaks.measured_at = utc_now_iso8601();
  {
    const int64_t elements = host ? (int64_t{1} << 26) : (int64_t{1} << 28);  // 256 MiB / 1 GiB
    at::Tensor src = at::empty({elements}, options.dtype(at::kFloat)).fill_(1.0);
    at::Tensor dst = at::empty_like(src);
    double ms = median_ms(
        device, [&] { dst.copy_(src); }, host ? 5 : 20);
    peaks.bandwidth_gbps = 2.0 * static_cast<double>(src.nbytes()) / (ms * 1e-3) / 1e9;
  }
  // The copy's 1 GiB blocks go back to the device now. Left cached, the matrix probe's library
  // workspace (kept for the process's life) is carved out of one of them and pins the whole
  // segment, and a worker's first op would hold 1 GiB reserved through every later op.
  runtime.release_cached_memory();
  {
    const int64_t n = host ? 1024 : 8192;
    auto dtype = host ? at::kFloat : at::kBFloat16;
    peaks.matrix_dtype = host ? "float32" : "bfloat16";
    at::Tensor a = at::randn({n, n}, options.dtype(dtype));
    at::Tensor b = at::randn({n, n}, options.dtype(dtype));
    double ms = median_ms(
        device, [&] { at::mm(a, b); }, host ? 3 : 10);
    peaks.matrix_tflops = 2.0 * n * n * n / (ms * 1e-3) / 1e12;
  }
  if (!cache_file.empty()) {
    nlohmann::json j = {{"device", peaks.device},
                        {"bandwidth_gbps", peaks.bandwidth_gbps},
                        {"matrix_tflops", peaks.matrix_tflops},
                        {"matrix_dtype", peaks.matrix_dtype},
                        {"measured_at", peaks.measured_at}};
    write_file_atomic(cache_file, j.dump(2) + "\n");
  }
  return peaks;
}

}  // namespace caliber
