#include "engine/device/cuda/cuda_graph_capture.h"

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "engine/device/cuda/cuda_check.h"
#include "engine/device/cuda/cuda_event_pool.h"

namespace caliber::cuda {
namespace {

class CudaCapturedGraph : public CapturedGraph {
 public:
  CudaCapturedGraph(std::unique_ptr<at::cuda::CUDAGraph> graph, int device_index)
      : graph_(std::move(graph)), device_index_(static_cast<c10::DeviceIndex>(device_index)) {
    events_.reserve(2, "replay");
  }

  double replay_ms() override {
    cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device_index_).stream();
    check(cudaEventRecord(events_[0], stream), "replay", "cudaEventRecord");
    graph_->replay();
    check(cudaEventRecord(events_[1], stream), "replay", "cudaEventRecord");
    return elapsed_ms(events_[0], events_[1], "replay");
  }

 private:
  std::unique_ptr<at::cuda::CUDAGraph> graph_;
  c10::DeviceIndex device_index_;
  EventPool events_;
};

// `stream` waits for everything queued on `on` so far.
void join(c10::cuda::CUDAStream stream, c10::cuda::CUDAStream on, const char* phase) {
  EventPool fence;
  fence.reserve(1, phase);
  check(cudaEventRecord(fence[0], on.stream()), phase, "cudaEventRecord");
  check(cudaStreamWaitEvent(stream.stream(), fence[0], 0), phase, "cudaStreamWaitEvent");
}

// Best effort after a failed capture: whatever torch's capture_end did not get to (it throws
// before releasing the allocator's pool when the runtime invalidated the capture).
void abandon_capture(at::cuda::CUDAGraph& graph, c10::cuda::CUDAStream stream,
                     c10::DeviceIndex device, at::cuda::MempoolId_t pool) {
  try {
    graph.capture_end();
  } catch (...) {
  }
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream.stream(), &status) == cudaSuccess &&
      status != cudaStreamCaptureStatusNone) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream.stream(), &partial);
    if (partial != nullptr) cudaGraphDestroy(partial);
  }
  try {
    c10::cuda::CUDACachingAllocator::endAllocateToPool(device, pool);
  } catch (...) {
    // capture_end got that far already.
  }
  cudaGetLastError();  // clear the capture error so that the next call does not inherit it
}

}  // namespace

std::unique_ptr<CapturedGraph> capture_cuda_graph(const Call& call, int calls, int device_index) {
  auto device = static_cast<c10::DeviceIndex>(device_index);
  c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream(device);
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device);
  join(side, current, "warmup");
  auto graph = std::make_unique<at::cuda::CUDAGraph>();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    try {
      call();
      check(cudaStreamSynchronize(side.stream()), "warmup", "cudaStreamSynchronize");
    } catch (const DeviceError&) {
      throw;
    } catch (const std::exception& e) {
      throw DeviceError("warmup", e.what());
    }
    // An explicit pool id, so that a failed capture's pool can be released by name.
    at::cuda::MempoolId_t pool = at::cuda::graph_pool_handle();
    try {
      graph->capture_begin(pool);
      for (int i = 0; i < calls; ++i) call();
      graph->capture_end();
    } catch (const std::exception& e) {
      std::string message = e.what();
      abandon_capture(*graph, side, device, pool);
      throw DeviceError("capture", message);
    }
  }
  join(current, side, "capture");
  return std::make_unique<CudaCapturedGraph>(std::move(graph), device_index);
}

}  // namespace caliber::cuda
