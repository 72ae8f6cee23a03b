#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// The lane an op belongs to: the same op lands on the same device run after run.
size_t home_lane(std::string_view op, size_t lane_count);

// Ops queued per lane by their home lane. A lane takes from the front of its own queue; when
// that is empty it steals from the back of the other queue with the most work left, so one slow
// op cannot leave the other devices idle while work is waiting.
//
// With an expected cost per op, each lane's queue runs longest first: the last ops of a screen
// are then its shortest, and a lane that runs dry steals short ops instead of waiting while
// another finishes a long one (the tail). Without costs every op counts 1 and the given order
// stays.
class WorkQueue {
 public:
  WorkQueue(const std::vector<std::string>& ops, size_t lane_count,
            const std::vector<double>& costs = {});

  // Index (into the ops given to the constructor) of the next op for `lane`; nullopt when no
  // work is left anywhere.
  std::optional<size_t> next(size_t lane);
  size_t queued() const;

 private:
  double cost(size_t op) const { return costs_.empty() ? 1.0 : costs_[op]; }

  mutable std::mutex mutex_;
  std::vector<double> costs_;
  std::vector<std::deque<size_t>> lanes_;
  std::vector<double> left_;  // summed cost still queued per lane
};

}  // namespace caliber
