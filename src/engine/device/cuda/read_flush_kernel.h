#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace caliber::cuda {

// Queues a kernel on `stream` that reads `bytes` of `buffer` (16-byte aligned, as cudaMalloc
// returns) through the L2 and writes at most one word to `sink`. Reading a buffer larger than
// the L2 evicts every line the timed call left there (dirty ones are written back now, during
// the flush) and leaves the L2 full of clean lines, which the next call can replace without
// a write-back: the `read` flush method.
cudaError_t launch_read_flush(cudaStream_t stream, const void* buffer, size_t bytes,
                              unsigned* sink);

}  // namespace caliber::cuda
