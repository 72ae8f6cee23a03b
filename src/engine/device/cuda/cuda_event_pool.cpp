#include "engine/device/cuda/cuda_event_pool.h"

#include "engine/device/cuda/cuda_check.h"

namespace caliber::cuda {

EventPool::~EventPool() {
  for (cudaEvent_t event : events_) cudaEventDestroy(event);
}

void EventPool::reserve(size_t count, const char* phase) {
  while (events_.size() < count) {
    cudaEvent_t event = nullptr;
    check(cudaEventCreate(&event), phase, "cudaEventCreate");
    events_.push_back(event);
  }
}

double elapsed_ms(cudaEvent_t start, cudaEvent_t end, const char* phase) {
  check(cudaEventSynchronize(end), phase, "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, end), phase, "cudaEventElapsedTime");
  return ms;
}

}  // namespace caliber::cuda
