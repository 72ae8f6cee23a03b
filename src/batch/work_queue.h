#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// FNV-1a: stable across runs, builds and hosts, unlike std::hash.
uint64_t stable_hash(std::string_view text);

// The lane an op belongs to: the same op lands on the same device run after run.
size_t home_lane(std::string_view op, size_t lane_count);

// Ops queued per lane by their home lane. A lane takes from the front of its own queue; when
// that is empty it steals from the back of the longest other queue, so one slow op cannot
// leave the other devices idle while work is waiting.
class WorkQueue {
 public:
  WorkQueue(const std::vector<std::string>& ops, size_t lane_count);

  // Index (into the ops given to the constructor) of the next op for `lane`; nullopt when no
  // work is left anywhere.
  std::optional<size_t> next(size_t lane);
  size_t queued() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::deque<size_t>> lanes_;
};

}  // namespace caliber
