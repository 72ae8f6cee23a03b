#pragma once

#include <map>
#include <string>

#include "backend/backend_descriptor.h"
#include "backend/timer_plan.h"
#include "core/device_api_choice.h"

namespace caliber {

// Which DeviceApi a run uses and what it can do. For the native path that is the backend's
// declared capabilities; for the generic path it is what probe_accelerator found on the device,
// recorded for run_identity.json and `caliber devices`.
struct DeviceApiPlan {
  bool generic = false;
  Capabilities capabilities;
  std::map<std::string, std::string> record;  // empty for the native path
};

// Resolves --device-api for `backend` (auto: native where this build has glue for it, else
// generic), and for the generic path loads the backend (with `library`, see load_backend) and
// probes device `device_index`. Throws a usage Error for a choice the backend cannot take, a
// package that cannot be imported, or a device torch does not see.
DeviceApiPlan resolve_device_api_plan(const BackendDescriptor& backend, DeviceApiKind kind,
                                      const std::string& library, int device_index);

// derive_timer_plan over the runtime's capabilities; on the generic path a requested timer the
// runtime lacks is refused saying what it needs and what the runtime said, and the plan is added
// to the record ("timer_plan").
TimerPlan plan_device_timers(DeviceApiPlan& runtime, const BackendDescriptor& backend,
                             Timer requested, bool graph_enabled);

}  // namespace caliber
