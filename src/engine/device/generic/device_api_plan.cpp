#include "engine/device/generic/device_api_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "backend/registry.h"
#include "core/error.h"
#include "engine/device/device_api_factory.h"
#include "engine/device/generic/accelerator_probe.h"
#include "engine/device/generic/backend_loader.h"

namespace caliber {
namespace {

std::string timer_names(const std::vector<Timer>& timers) {
  std::vector<std::string> names;
  for (Timer t : timers) names.push_back(to_string(t));
  return fmt::format("{}", fmt::join(names, ", "));
}

// What a timer needs from the runtime, and what the record says about it.
std::string missing_for(Timer timer, const DeviceApiPlan& runtime) {
  auto said = [&](const char* key) {
    auto it = runtime.record.find(key);
    return it == runtime.record.end() ? std::string("no") : it->second;
  };
  switch (timer) {
    case Timer::kDirect:
      return "it needs device events (events: " + said("events") + ")";
    case Timer::kGraph:
      return "it needs the backend's graph API (graph: " + said("graph") + ")";
    case Timer::kBatch:
      return "it needs a blocking kernel, which only native glue has";
    case Timer::kKernel:
      return "it needs kernel activity tracing, which only native glue has";
    default:
      return "";
  }
}

}  // namespace

DeviceApiPlan resolve_device_api_plan(const BackendDescriptor& backend, DeviceApiKind kind,
                                      const std::string& library, int device_index) {
  const bool native = has_native_device_api(backend);
  if (kind == DeviceApiKind::kNative && !native) {
    throw_usage(
        "--device-api: 'native' has no glue for backend {} in this build (accepted: auto, "
        "generic)",
        backend.name);
  }
  if (kind == DeviceApiKind::kGeneric && backend.torch_device_type == "cpu") {
    throw_usage(
        "--device-api: 'generic' drives accelerators; backend {} is the host (accepted: "
        "auto, native)",
        backend.name);
  }
  if (!library.empty() && !backend.enumerated_by_torch && backend.python_module.empty()) {
    throw_usage(
        "--backend-library: backend {} is built into torch and loads nothing (accepted "
        "with: opencl, privateuse1, musa, ascend)",
        backend.name);
  }
  DeviceApiPlan runtime;
  runtime.generic = kind == DeviceApiKind::kGeneric || (kind == DeviceApiKind::kAuto && !native);
  if (!runtime.generic) {
    runtime.capabilities = backend.capabilities;
    return runtime;
  }
  request_backend_library(library);
  load_backend(backend, library);
  // After the load (on this thread: a backend only torch can count starts the interpreter), and
  // before the probe, so that a missing device is named as the native path names it.
  guard_device_present(backend, device_index);
  const AcceleratorFeatures& features = probe_accelerator(backend, device_index);
  runtime.capabilities = features.capabilities();
  runtime.record = features.record();
  return runtime;
}

TimerPlan plan_device_timers(DeviceApiPlan& runtime, const BackendDescriptor& backend,
                             Timer requested, bool graph_enabled) {
  if (runtime.generic && requested != Timer::kAuto) {
    const std::vector<Timer> available = available_timers(runtime.capabilities);
    if (std::find(available.begin(), available.end(), requested) == available.end()) {
      throw_usage(
          "--timer: '{}' is not available on backend {} through the generic device API: {} "
          "(available: auto, {})",
          to_string(requested), backend.name, missing_for(requested, runtime),
          timer_names(available));
    }
  }
  TimerPlan plan = derive_timer_plan(runtime.capabilities, requested, graph_enabled, backend.name);
  if (runtime.generic) {
    runtime.record["timer_plan"] = fmt::format(
        "primary={} fallback={} available={}", to_string(plan.primary),
        plan.fallback ? to_string(*plan.fallback) : "none", timer_names(plan.available));
  }
  return plan;
}

}  // namespace caliber
