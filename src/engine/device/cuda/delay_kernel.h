#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace caliber::cuda {

// Queues a one-thread kernel on `stream` that spins until `nanoseconds` have passed on the
// device's global timer: a fixed amount of device time that a graph can capture, whatever the
// SM clock does meanwhile (a clock-cycle spin would stretch under the power cap).
cudaError_t launch_delay(cudaStream_t stream, uint64_t nanoseconds);

}  // namespace caliber::cuda
