#include "engine/device/cuda/read_flush_kernel.h"

#include <cstdint>

namespace caliber::cuda {
namespace {

// Enough blocks to keep every SM of a large part streaming; the loop strides over the rest.
constexpr unsigned kBlocks = 2048;
constexpr unsigned kThreads = 256;
// A value the folded words are compared with, so that the loads have a use the compiler must
// keep; the store behind it is harmless either way.
constexpr unsigned kUnlikely = 0x9e3779b9u;

__global__ void read_flush_kernel(const uint4* data, size_t words, const unsigned char* tail,
                                  size_t tail_bytes, unsigned* sink) {
  unsigned folded = 0;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += stride) {
    const uint4 v = data[i];
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < tail_bytes) folded ^= tail[threadIdx.x];
  if (folded == kUnlikely) *sink = folded;
}

}  // namespace

cudaError_t launch_read_flush(cudaStream_t stream, const void* buffer, size_t bytes,
                              unsigned* sink) {
  const size_t words = bytes / sizeof(uint4);
  const auto* tail = static_cast<const unsigned char*>(buffer) + words * sizeof(uint4);
  read_flush_kernel<<<kBlocks, kThreads, 0, stream>>>(static_cast<const uint4*>(buffer), words,
                                                      tail, bytes % sizeof(uint4), sink);
  return cudaGetLastError();
}

}  // namespace caliber::cuda
