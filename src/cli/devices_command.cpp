#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "backend/registry.h"
#include "backend/timer_plan.h"
#include "cli/command.h"
#include "engine/device/device_context.h"
#include "engine/torch_runtime.h"

namespace caliber {
namespace {

nlohmann::json capabilities_json(const Capabilities& c) {
  return {{"device_events", c.device_events},
          {"graph_capture", c.graph_capture},
          {"blocking_kernel_batch", c.blocking_kernel_batch},
          {"kernel_activity", c.kernel_activity},
          {"l2_flush", c.l2_flush},
          {"default_rng_generators", c.default_rng_generators},
          {"clock_query", c.clock_query}};
}

std::string runtime_version_for(const BackendDescriptor& backend, const DeviceInfo& device) {
  if (!device.runtime_version.empty()) return device.runtime_version;
  return device_runtime_version(backend);
}

int list_devices(const FlagValues& flags, bool as_json) {
  Knobs knobs = resolve_knobs(flags, process_env(), {"backend"});
  const BackendDescriptor& backend = select_backend(knobs.backend, "--backend (ZL_BACKEND)");
  guard_device_present(backend, 0);
  const auto& devices = devices_of(backend);
  TimerPlan plan = derive_timer_plan(backend.capabilities, Timer::kAuto, true, backend.name);
  std::vector<std::string> timers;
  for (Timer t : plan.available) timers.push_back(to_string(t));

  nlohmann::json out = {{"backend", backend.name},
                        {"visibility_variable", backend.visibility_variable},
                        {"torch_device_type", backend.torch_device_type},
                        {"torch_version", torch_version()},
                        {"capabilities", capabilities_json(backend.capabilities)},
                        {"timers", timers},
                        {"default_timer", to_string(plan.primary)},
                        {"devices", nlohmann::json::array()}};
  for (const auto& d : devices) {
    out["devices"].push_back({{"index", d.index},
                              {"name", d.name},
                              {"pci_bus_id", d.pci_bus_id},
                              {"total_memory_bytes", d.total_memory_bytes},
                              {"compute_units", d.compute_units},
                              {"compute_capability", d.compute_capability},
                              {"sm_clock_mhz", d.sm_clock_mhz},
                              {"max_sm_clock_mhz", d.max_sm_clock_mhz},
                              {"memory_clock_mhz", d.memory_clock_mhz},
                              {"l2_cache_bytes", d.l2_cache_bytes},
                              {"driver_version", d.driver_version},
                              {"runtime_version", runtime_version_for(backend, d)}});
  }
  if (as_json) {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("backend {} ({} device(s), visibility {}, torch {})\n", backend.name, devices.size(),
             backend.visibility_variable.empty() ? "-" : backend.visibility_variable,
             torch_version());
  for (const auto& d : out["devices"]) {
    fmt::print("  [{}] {}  {:.1f} GiB  {} compute units", d["index"].get<int>(),
               d["name"].get<std::string>(),
               d["total_memory_bytes"].get<double>() / (1024.0 * 1024 * 1024),
               d["compute_units"].get<int>());
    if (!d["compute_capability"].get<std::string>().empty()) {
      fmt::print("  cc {}", d["compute_capability"].get<std::string>());
    }
    if (d["max_sm_clock_mhz"].get<int>() > 0) {
      fmt::print("  SM clock {}/{} MHz  memory clock {} MHz", d["sm_clock_mhz"].get<int>(),
                 d["max_sm_clock_mhz"].get<int>(), d["memory_clock_mhz"].get<int>());
    }
    if (d["l2_cache_bytes"].get<uint64_t>() > 0) {
      fmt::print("  L2 {} MiB", d["l2_cache_bytes"].get<uint64_t>() / (1024 * 1024));
    }
    fmt::print("\n");
    if (!d["driver_version"].get<std::string>().empty()) {
      fmt::print("      driver {}  runtime {}\n", d["driver_version"].get<std::string>(),
                 d["runtime_version"].get<std::string>());
    }
  }
  std::vector<std::string> caps;
  for (const auto& [name, on] : out["capabilities"].items()) {
    caps.push_back(fmt::format("{}={}", name, on.get<bool>() ? "yes" : "no"));
  }
  fmt::print("  capabilities: {}\n", fmt::join(caps, " "));
  fmt::print("  timers: {} (auto -> {})\n", fmt::join(timers, ", "), to_string(plan.primary));
  return 0;
}

}  // namespace

void add_devices_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("devices", "List the visible devices of a backend");
  auto flags = std::make_shared<FlagValues>();
  auto as_json = std::make_shared<bool>(false);
  add_knob_options(cmd, *flags, {"backend"});
  cmd->add_flag("--json", *as_json, "print JSON");
  cmd->callback([&action, flags, as_json] {
    action = [flags, as_json] { return list_devices(*flags, *as_json); };
  });
}

}  // namespace caliber
