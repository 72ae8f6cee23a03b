#pragma once

#include <cuda_runtime_api.h>

namespace caliber::cuda {

// Queues a one-thread kernel on `stream` that spins until the host writes a non-zero value to
// `*release` (host-mapped memory), so that work queued behind it starts at once when released.
// It gives up by itself after `timeout_ns` (and sets `*timed_out`) so that a host that died or a
// watchdog that never fired cannot hang the device, as nvbench's blocking kernel does.
cudaError_t launch_blocking_kernel(cudaStream_t stream, const volatile int* release,
                                   volatile int* timed_out, unsigned long long timeout_ns);

}  // namespace caliber::cuda
