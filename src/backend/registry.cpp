#include "backend/registry.h"

#include <fmt/ranges.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>

#include "backend/cuda_enumeration.h"
#include "backend/other_enumeration.h"
#include "backend/torch_enumeration.h"
#include "core/choice.h"
#include "core/error.h"

namespace caliber {
namespace {

// Wordings are matched case-insensitively as substrings; fatal ones win over capture ones.
std::vector<Wording> cuda_wordings() {
  return {
      {"illegal memory access", CaptureVerdict::kFatal},
      {"an illegal instruction", CaptureVerdict::kFatal},
      {"misaligned address", CaptureVerdict::kFatal},
      // "triggered": every torch CUDA error ends with "Compile with `TORCH_USE_CUDA_DSA` to enable
      // device-side assertions", which must not make a capture refusal fatal.
      {"device-side assert triggered", CaptureVerdict::kFatal},
      {"unspecified launch failure", CaptureVerdict::kFatal},
      {"uncorrectable ecc error", CaptureVerdict::kFatal},
      {"hardware stop", CaptureVerdict::kFatal},
      {"cudaErrorLaunchFailure", CaptureVerdict::kFatal},
      {"cudaErrorIllegalAddress", CaptureVerdict::kFatal},
      {"capture sequence contains a fork that was not joined", CaptureVerdict::kPoisoned},
      {"cudaErrorStreamCaptureUnjoined", CaptureVerdict::kPoisoned},
      {"cudaErrorStreamCaptureWrongThread", CaptureVerdict::kPoisoned},
      {"operation not permitted when stream is capturing", CaptureVerdict::kRefused},
      {"operation failed due to a previous error during capture", CaptureVerdict::kRefused},
      {"cudaErrorStreamCaptureUnsupported", CaptureVerdict::kRefused},
      {"cudaErrorStreamCaptureInvalidated", CaptureVerdict::kRefused},
      {"cudaErrorStreamCaptureImplicit", CaptureVerdict::kRefused},
      {"would make the legacy stream depend on a capturing blocking stream",
       CaptureVerdict::kRefused},
      {"during cuda graph capture", CaptureVerdict::kRefused},
      {"not allowed during graph capture", CaptureVerdict::kRefused},
      {"cannot be captured", CaptureVerdict::kRefused},
      {"currently capturing", CaptureVerdict::kRefused},
  };
}

std::vector<Wording> rocm_wordings() {
  return {
      {"memory access fault", CaptureVerdict::kFatal},
      {"hipErrorIllegalAddress", CaptureVerdict::kFatal},
      {"hipErrorLaunchFailure", CaptureVerdict::kFatal},
      {"device-side assert triggered", CaptureVerdict::kFatal},
      {"hipErrorStreamCaptureUnjoined", CaptureVerdict::kPoisoned},
      {"operation not permitted when stream is capturing", CaptureVerdict::kRefused},
      {"hipErrorStreamCaptureUnsupported", CaptureVerdict::kRefused},
      {"hipErrorStreamCaptureInvalidated", CaptureVerdict::kRefused},
      {"during hip graph capture", CaptureVerdict::kRefused},
  };
}

std::vector<Wording> musa_wordings() {
  return {
      {"illegal memory access", CaptureVerdict::kFatal},
      {"musaErrorIllegalAddress", CaptureVerdict::kFatal},
      {"musaErrorLaunchFailure", CaptureVerdict::kFatal},
      {"operation not permitted when stream is capturing", CaptureVerdict::kRefused},
      {"musaErrorStreamCaptureUnsupported", CaptureVerdict::kRefused},
  };
}

std::vector<Wording> ascend_wordings() {
  return {
      {"aicore exception", CaptureVerdict::kFatal},
      {"EZ9999", CaptureVerdict::kFatal},
      {"aclgraph capture", CaptureVerdict::kRefused},
  };
}

std::vector<BackendDescriptor> make_backends() {
  Capabilities cuda_caps{.device_events = true,
                         .graph_capture = true,
                         .blocking_kernel_batch = true,
                         .kernel_activity = true,
                         .l2_flush = true,
                         .default_rng_generators = true,
                         .clock_query = true,
                         .device_delay = true};
  // Not yet verified on hardware: graph, batch and activity timing stay off until they are.
  Capabilities rocm_caps{.device_events = true, .l2_flush = true, .default_rng_generators = true};
  Capabilities musa_caps{.device_events = true, .l2_flush = true, .default_rng_generators = true};
  Capabilities ascend_caps{.device_events = true, .l2_flush = true};
  Capabilities cpu_caps{};
  // Out-of-tree PrivateUse1 backends promise nothing: the generic device API detects what their
  // runtime offers (events, synchronisation, graphs) once the backend is loaded.
  Capabilities detected_caps{};
  std::vector<BackendDescriptor> backends = {
      {"cuda",
       {"nvidia"},
       "NVIDIA",
       "CUDA_VISIBLE_DEVICES",
       "cuda",
       cuda_caps,
       FailureClassifier(cuda_wordings()),
       enumerate_cuda_devices,
       "",
       false},
      {"rocm",
       {"hip", "amd"},
       "AMD",
       "HIP_VISIBLE_DEVICES",
       "cuda",
       rocm_caps,
       FailureClassifier(rocm_wordings()),
       enumerate_rocm_devices,
       "",
       false},
      {"musa",
       {"mthreads", "mt"},
       "Moore Threads",
       "MUSA_VISIBLE_DEVICES",
       "musa",
       musa_caps,
       FailureClassifier(musa_wordings()),
       enumerate_musa_devices,
       "torch_musa",
       false},
      {"ascend",
       {"npu", "huawei"},
       "Huawei",
       "ASCEND_RT_VISIBLE_DEVICES",
       "npu",
       ascend_caps,
       FailureClassifier(ascend_wordings()),
       enumerate_ascend_devices,
       "torch_npu",
       false},
      {"cpu",
       {"host"},
       "host",
       "",
       "cpu",
       cpu_caps,
       FailureClassifier({}),
       enumerate_host_cpu,
       "",
       false},
      // PyPI's torch-opencl: a PrivateUse1 backend renamed "opencl", on any OpenCL runtime (POCL
      // on the host in CI). Its devices are what torch counts once torch_opencl is imported.
      {"opencl",
       {"ocl"},
       "OpenCL",
       "",
       "opencl",
       detected_caps,
       FailureClassifier({}),
       [] { return enumerate_through_torch("opencl"); },
       "torch_opencl",
       true},
      // Any other PrivateUse1 backend: loaded from --backend-library (a shared library, or
      // python:MODULE for a Python package); torch's own name for the device type stays valid
      // whatever the backend renamed it to.
      {"privateuse1",
       {"privateuseone", "pu1"},
       "PrivateUse1",
       "",
       "privateuseone",
       detected_caps,
       FailureClassifier({}),
       [] { return enumerate_through_torch("privateuse1"); },
       "",
       true},
  };
  return backends;
}

constexpr std::chrono::seconds kEnumerationTimeout{30};

}  // namespace

const std::vector<BackendDescriptor>& all_backends() {
  static const std::vector<BackendDescriptor> backends = make_backends();
  return backends;
}

std::string accepted_backend_names() {
  std::vector<std::string> names;
  for (const auto& b : all_backends()) {
    std::string entry = b.name;
    if (!b.aliases.empty()) entry += fmt::format(" ({})", fmt::join(b.aliases, ", "));
    names.push_back(entry);
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

const BackendDescriptor& find_backend(const std::string& knob, const std::string& name) {
  std::string wanted = to_lower(name);
  for (const auto& b : all_backends()) {
    if (b.name == wanted) return b;
    for (const auto& alias : b.aliases) {
      if (alias == wanted) return b;
    }
  }
  throw_usage("{}: '{}' is not a backend (accepted: {})", knob, name, accepted_backend_names());
}

const std::vector<DeviceInfo>& devices_of(const BackendDescriptor& backend) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<std::vector<DeviceInfo>>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[backend.name];
  if (!slot) {
    // A wedged driver must not hang start-up: enumerate on a thread and give up after a while.
    // The thread is left behind on timeout; the process is about to exit with an error anyway.
    auto task = std::make_shared<std::packaged_task<std::vector<DeviceInfo>()>>(backend.enumerate);
    auto future = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    if (future.wait_for(kEnumerationTimeout) != std::future_status::ready) {
      throw Error(ErrorKind::kDeviceFatal,
                  fmt::format("{} device enumeration did not return within {} s: the driver "
                              "looks wedged",
                              backend.name, kEnumerationTimeout.count()));
    }
    slot = std::make_shared<std::vector<DeviceInfo>>(future.get());
  }
  return *slot;
}

const BackendDescriptor& select_backend(const std::string& requested, const std::string& knob) {
  if (!requested.empty()) return find_backend(knob, requested);
  for (const auto& b : all_backends()) {
    // Counting a torch-enumerated backend's devices imports its package: only when asked for.
    if (b.name != "cpu" && !b.enumerated_by_torch && !devices_of(b).empty()) return b;
  }
  return find_backend(knob, "cpu");
}

void guard_device_present(const BackendDescriptor& backend, int device_index) {
  const auto& devices = devices_of(backend);
  if (device_index < static_cast<int>(devices.size())) return;
  std::vector<std::string> found;
  for (const auto& other : all_backends()) {
    if (other.name == backend.name || other.name == "cpu" || other.enumerated_by_torch) continue;
    const auto& present = devices_of(other);
    if (!present.empty()) {
      found.push_back(
          fmt::format("{} x {} ({})", present.size(), present.front().name, other.name));
    }
  }
  std::string what = found.empty() ? "no accelerator; only the host cpu backend is available"
                                   : fmt::format("{}", fmt::join(found, ", "));
  if (devices.empty()) {
    throw_usage("--backend: no {} device is present (found: {})", backend.name, what);
  }
  throw_usage("--device: index {} is not visible on backend {} ({} device(s) visible)",
              device_index, backend.name, devices.size());
}

}  // namespace caliber
