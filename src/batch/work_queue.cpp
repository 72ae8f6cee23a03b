#include "batch/work_queue.h"

#include <algorithm>

#include "core/fnv1a.h"

namespace caliber {

size_t home_lane(std::string_view op, size_t lane_count) {
  return lane_count == 0 ? 0 : static_cast<size_t>(fnv1a(op) % lane_count);
}

WorkQueue::WorkQueue(const std::vector<std::string>& ops, size_t lane_count,
                     const std::vector<double>& costs)
    : costs_(costs.size() == ops.size() ? costs : std::vector<double>{}),
      lanes_(lane_count == 0 ? 1 : lane_count),
      left_(lanes_.size(), 0.0) {
  for (size_t i = 0; i < ops.size(); ++i) {
    size_t lane = home_lane(ops[i], lanes_.size());
    lanes_[lane].push_back(i);
    left_[lane] += cost(i);
  }
  if (costs_.empty()) return;
  for (auto& lane : lanes_) {
    std::stable_sort(lane.begin(), lane.end(),
                     [this](size_t a, size_t b) { return costs_[a] > costs_[b]; });
  }
}

std::optional<size_t> WorkQueue::next(size_t lane) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& own = lanes_.at(lane);
  if (!own.empty()) {
    size_t op = own.front();
    own.pop_front();
    left_[lane] -= cost(op);
    return op;
  }
  size_t victim = lanes_.size();
  for (size_t other = 0; other < lanes_.size(); ++other) {
    if (!lanes_[other].empty() && (victim == lanes_.size() || left_[other] > left_[victim])) {
      victim = other;
    }
  }
  if (victim == lanes_.size()) return std::nullopt;
  size_t op = lanes_[victim].back();
  lanes_[victim].pop_back();
  left_[victim] -= cost(op);
  return op;
}

size_t WorkQueue::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& lane : lanes_) n += lane.size();
  return n;
}

}  // namespace caliber
