#include "engine/device/generic/accelerator_features.h"

#include <fmt/format.h>

namespace caliber {

const char* to_string(SyncMethod method) {
  switch (method) {
    case SyncMethod::kStream:
      return "stream";
    case SyncMethod::kDevice:
      return "device";
    case SyncMethod::kReadback:
      return "readback";
  }
  return "?";
}

Capabilities AcceleratorFeatures::capabilities() const {
  // A blocking kernel, activity tracing and clock queries are vendor facilities the generic
  // runtime does not expose; a capture's RNG guard matters only where graphs exist.
  return {.device_events = events,
          .graph_capture = graph,
          .blocking_kernel_batch = false,
          .kernel_activity = false,
          .l2_flush = fill,
          .default_rng_generators = false,
          .clock_query = false};
}

std::map<std::string, std::string> AcceleratorFeatures::record() const {
  auto yes_no = [](bool on, const std::string& detail) {
    if (on) return std::string("yes");
    return detail.empty() ? std::string("no") : "no: " + detail;
  };
  std::map<std::string, std::string> out = {
      {"torch_device_type", torch_device_type},
      {"device_count", std::to_string(device_count)},
      {"stream", pool_stream ? "pool" : "current"},
      {"events", yes_no(events, events_detail)},
      {"synchronize", sync_detail.empty() ? to_string(sync)
                                          : fmt::format("{} ({})", to_string(sync), sync_detail)},
      {"graph", yes_no(graph, graph_detail)},
      {"allocator_stats", allocator_stats ? "yes" : "no"},
      {"cache_flush", fill ? fmt::format("{} MiB", flush_bytes >> 20) : "no"},
      {"l2_cache", l2_cache_bytes > 0 ? fmt::format("{} MiB ({})", l2_cache_bytes >> 20, l2_source)
                                      : "unknown (" + l2_source + ")"},
  };
  return out;
}

}  // namespace caliber
