#include "engine/device/cuda/delay_kernel.h"

namespace caliber::cuda {
namespace {

__device__ uint64_t global_ns() {
  uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void delay_kernel(uint64_t nanoseconds) {
  const uint64_t start = global_ns();
  while (global_ns() - start < nanoseconds) {
  }
}

}  // namespace

cudaError_t launch_delay(cudaStream_t stream, uint64_t nanoseconds) {
  delay_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  return cudaGetLastError();
}

}  // namespace caliber::cuda
