#include "engine/device/cuda/blocking_kernel.h"

namespace caliber::cuda {
namespace {

__device__ unsigned long long global_timer_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void blocking_kernel(const volatile int* release, volatile int* timed_out,
                                unsigned long long timeout_ns) {
  unsigned long long start = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      *timed_out = 1;
      break;
    }
  }
  __threadfence_system();
}

}  // namespace

cudaError_t launch_blocking_kernel(cudaStream_t stream, const volatile int* release,
                                   volatile int* timed_out, unsigned long long timeout_ns) {
  blocking_kernel<<<1, 1, 0, stream>>>(release, timed_out, timeout_ns);
  return cudaGetLastError();
}

}  // namespace caliber::cuda
