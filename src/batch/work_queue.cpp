#include "batch/work_queue.h"

namespace caliber {

uint64_t stable_hash(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

size_t home_lane(std::string_view op, size_t lane_count) {
  return lane_count == 0 ? 0 : static_cast<size_t>(stable_hash(op) % lane_count);
}

WorkQueue::WorkQueue(const std::vector<std::string>& ops, size_t lane_count)
    : lanes_(lane_count == 0 ? 1 : lane_count) {
  for (size_t i = 0; i < ops.size(); ++i) lanes_[home_lane(ops[i], lanes_.size())].push_back(i);
}

std::optional<size_t> WorkQueue::next(size_t lane) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& own = lanes_.at(lane);
  if (!own.empty()) {
    size_t op = own.front();
    own.pop_front();
    return op;
  }
  std::deque<size_t>* victim = nullptr;
  for (auto& other : lanes_) {
    if (!other.empty() && (victim == nullptr || other.size() > victim->size())) victim = &other;
  }
  if (victim == nullptr) return std::nullopt;
  size_t op = victim->back();
  victim->pop_back();
  return op;
}

size_t WorkQueue::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& lane : lanes_) n += lane.size();
  return n;
}

}  // namespace caliber
