#pragma once

#include <memory>
#include <string>

#include "engine/device/generic/event_timer.h"
#include "timing/device_api.h"

namespace caliber {

// A backend's graph API as torch exposes it: a class of torch's device module with
// capture_begin/capture_end/replay (torch.cuda.CUDAGraph, torch_musa's MUSAGraph, torch_npu's
// NPUGraph, torch.xpu's XPUGraph). torch has no device-generic graph in C++, so the generic
// path drives that class through the embedded interpreter.

struct GraphSupport {
  bool works = false;
  std::string detail;  // why not, in the runtime's words where it gave some; else the class
};

// Whether the graph class captures and replays a small op correctly on device `index` (on a
// side stream, as torch's own graph context does): detected, not assumed from the name.
GraphSupport probe_graph_support(const std::string& torch_device_type, int index);

// Captures `calls_per_graph` calls on the current stream (which must not be a legacy default
// stream); each replay is timed with `timer`'s events. Throws DeviceError("capture") with the
// runtime's words when the capture is refused.
std::unique_ptr<CapturedGraph> capture_python_graph(const std::string& torch_device_type,
                                                    const Call& call, int calls_per_graph,
                                                    EventTimer& timer);

}  // namespace caliber
