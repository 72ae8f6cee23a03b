#pragma once

#include <memory>

#include "timing/device_api.h"

namespace caliber::cuda {

// Captures `calls` calls into a CUDA graph through torch's CUDAGraph, so that the caching
// allocator serves the capture from a private pool. Warmup and capture run on a side stream
// (capture cannot run on the legacy default stream, and a side-stream warmup lets libraries
// create their per-stream handles and workspaces before capture); replays launch on the current
// stream, timed with events. A failed capture is ended and its pool released before the
// DeviceError (phase "warmup" or "capture") leaves, so the stream and allocator stay usable.
std::unique_ptr<CapturedGraph> capture_cuda_graph(const Call& call, int calls, int device_index);

}  // namespace caliber::cuda
