#pragma once

#include <cstdint>
#include <vector>

#include "core/activities_per_call.h"

namespace caliber {

// The kinds of device work the `kernel` timer traces.
enum class ActivityKind { kKernel, kMemset, kMemcpy };

// One piece of device work as the activity tracer timed it, in the tracer's clock (ns).
struct DeviceActivity {
  ActivityKind kind = ActivityKind::kKernel;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// The interval in which one call ran alone on an otherwise idle device, in the tracer's clock.
struct CallWindow {
  uint64_t begin_ns = 0;
  uint64_t end_ns = 0;
};

// The device work one call launched, per kind.
struct CallActivities {
  int kernels = 0;
  int memsets = 0;
  int memcpys = 0;
  uint64_t kernel_ns = 0;
  uint64_t memset_ns = 0;
  uint64_t memcpy_ns = 0;

  uint64_t total_ns() const { return kernel_ns + memset_ns + memcpy_ns; }
  // The `kernel` timer's sample: every kind summed.
  double total_ms() const { return static_cast<double>(total_ns()) / 1e6; }
};

// Attributes each activity that *starts* inside a window to that window's call (the flush
// before a call has finished before its window opens; work of a call that ends after its window
// is still its own). Overlapping activities of one call are summed, as ncu's per-kernel
// durations would be. One entry per window, in the windows' order.
std::vector<CallActivities> attribute_activities(std::vector<DeviceActivity> activities,
                                                 const std::vector<CallWindow>& windows);

// The per-call picture over many calls: the most frequent count of each kind (ties: the
// smaller) and the median summed time of each kind. An empty list gives a summary of 0 calls.
ActivitiesPerCall summarize_activities(const std::vector<CallActivities>& calls);

}  // namespace caliber
