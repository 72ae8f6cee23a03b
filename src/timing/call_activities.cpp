#include "timing/call_activities.h"

#include <algorithm>
#include <functional>
#include <map>

#include "core/stats.h"

namespace caliber {
namespace {

// The most frequent value; among equally frequent ones the smallest, so that a rare extra
// launch (a first-call allocation) does not decide the count.
int most_frequent(const std::vector<int>& values) {
  std::map<int, int> counts;
  for (int v : values) ++counts[v];
  int best = 0;
  int best_count = 0;
  for (const auto& [value, count] : counts) {
    if (count > best_count) {
      best = value;
      best_count = count;
    }
  }
  return best;
}

double median_us(const std::vector<CallActivities>& calls, uint64_t CallActivities::*field) {
  std::vector<double> values;
  values.reserve(calls.size());
  for (const auto& c : calls) values.push_back(static_cast<double>(c.*field) / 1e3);
  return median(std::move(values));
}

}  // namespace

std::vector<CallActivities> attribute_activities(std::vector<DeviceActivity> activities,
                                                 const std::vector<CallWindow>& windows) {
  std::sort(
      activities.begin(), activities.end(),
      [](const DeviceActivity& a, const DeviceActivity& b) { return a.start_ns < b.start_ns; });
  std::vector<CallActivities> out;
  out.reserve(windows.size());
  for (const CallWindow& window : windows) {
    CallActivities call;
    auto first =
        std::lower_bound(activities.begin(), activities.end(), window.begin_ns,
                         [](const DeviceActivity& a, uint64_t t) { return a.start_ns < t; });
    for (auto it = first; it != activities.end() && it->start_ns <= window.end_ns; ++it) {
      const uint64_t ns = it->end_ns > it->start_ns ? it->end_ns - it->start_ns : 0;
      switch (it->kind) {
        case ActivityKind::kKernel:
          ++call.kernels;
          call.kernel_ns += ns;
          break;
        case ActivityKind::kMemset:
          ++call.memsets;
          call.memset_ns += ns;
          break;
        case ActivityKind::kMemcpy:
          ++call.memcpys;
          call.memcpy_ns += ns;
          break;
      }
    }
    out.push_back(call);
  }
  return out;
}

ActivitiesPerCall summarize_activities(const std::vector<CallActivities>& calls) {
  ActivitiesPerCall out;
  out.calls = static_cast<int>(calls.size());
  if (calls.empty()) return out;
  std::vector<int> kernels, memsets, memcpys;
  for (const auto& c : calls) {
    kernels.push_back(c.kernels);
    memsets.push_back(c.memsets);
    memcpys.push_back(c.memcpys);
  }
  out.kernels = most_frequent(kernels);
  out.memsets = most_frequent(memsets);
  out.memcpys = most_frequent(memcpys);
  auto varies = [](const std::vector<int>& v) {
    return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) != v.end();
  };
  out.counts_vary = varies(kernels) || varies(memsets) || varies(memcpys);
  out.kernel_us = median_us(calls, &CallActivities::kernel_ns);
  out.memset_us = median_us(calls, &CallActivities::memset_ns);
  out.memcpy_us = median_us(calls, &CallActivities::memcpy_ns);
  return out;
}

}  // namespace caliber
