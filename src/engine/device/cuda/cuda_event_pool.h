#pragma once

#include <cuda_runtime_api.h>

#include <vector>

namespace caliber::cuda {

// Timing events, created once and reused: creating thousands per measurement would cost more
// host time than the calls between them.
class EventPool {
 public:
  EventPool() = default;
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;
  ~EventPool();

  // Makes at least `count` events available.
  void reserve(size_t count, const char* phase);
  cudaEvent_t operator[](size_t index) const { return events_[index]; }

 private:
  std::vector<cudaEvent_t> events_;
};

// Milliseconds between two recorded events, after waiting for the later one.
double elapsed_ms(cudaEvent_t start, cudaEvent_t end, const char* phase);

}  // namespace caliber::cuda
