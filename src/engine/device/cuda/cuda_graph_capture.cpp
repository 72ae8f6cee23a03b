#include "engine/device/cuda/cuda_graph_capture.h"

#include <ATen/core/CachingHostAllocator.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <vector>

#include "engine/device/cuda/cuda_check.h"
#include "engine/device/cuda/cuda_event_pool.h"

namespace caliber::cuda {
namespace {

class CudaCapturedGraph : public CapturedGraph {
 public:
  CudaCapturedGraph(std::unique_ptr<at::cuda::CUDAGraph> graph, int device_index)
      : graph_(std::move(graph)), device_index_(static_cast<c10::DeviceIndex>(device_index)) {}

  // Untimed: while the device runs it, the host queues the timed replays, so each of them starts
  // the moment the one before it ends instead of when the host's launch returns.
  void replay_untimed() override { graph_->replay(); }

  void upload() override {
    cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device_index_).stream();
    check(cudaGraphUpload(graph_->raw_cuda_graph_exec(), stream), "capture", "cudaGraphUpload");
  }

  void queue_timed(int replays, const Call& before_each) override {
    cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device_index_).stream();
    events_.reserve(2 * static_cast<size_t>(replays), "replay");
    queued_ = replays;
    // The timed replays launch the executable graph itself: torch's replay() first refills the
    // generator's seed and offset on the device, two small kernels that would sit inside the
    // events and be divided into every call's share (docs/measurement.md, "Run 5"). The random
    // ops then draw the same numbers in every timed replay, which is the same work.
    cudaGraphExec_t exec = graph_->raw_cuda_graph_exec();
    for (int i = 0; i < replays; ++i) {
      if (before_each) before_each();
      check(cudaEventRecord(events_[2 * i], stream), "replay", "cudaEventRecord");
      check(cudaGraphLaunch(exec, stream), "replay", "cudaGraphLaunch");
      check(cudaEventRecord(events_[2 * i + 1], stream), "replay", "cudaEventRecord");
    }
  }

  std::vector<double> collect_timed() override {
    std::vector<double> samples;
    samples.reserve(queued_);
    for (int i = 0; i < queued_; ++i) {
      samples.push_back(elapsed_ms(events_[2 * i], events_[2 * i + 1], "replay"));
    }
    queued_ = 0;
    return samples;
  }

 private:
  std::unique_ptr<at::cuda::CUDAGraph> graph_;
  c10::DeviceIndex device_index_;
  EventPool events_;
  int queued_ = 0;
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
  // torch's CUDAGraph releases its pool only after a capture that ended (its destructor does it
  // then, so releasing here too would drop the count below zero); without this, every refused
  // capture keeps its pool's memory reserved for the rest of the process, and a worker's
  // reserved memory grows op after op. Released, the pool's blocks go back to the device at the
  // next empty_cache, or when an allocation would fail.
  bool ended = true;
  try {
    graph.pool();  // throws unless the capture ended
  } catch (...) {
    ended = false;
  }
  if (!ended) {
    at::HostAllocator* host = at::getHostAllocator(at::kCUDA);  // capture_begin routed it too
    auto quietly = [](auto&& step) {
      try {
        step();
      } catch (...) {
        // Not made, or already ended by capture_end: nothing to undo.
      }
    };
    quietly([&] { c10::cuda::CUDACachingAllocator::releasePool(device, pool); });
    quietly([&] { host->end_allocate_to_pool(pool); });
    quietly([&] { host->release_pool(pool); });
  }
  cudaGetLastError();  // clear the capture error so that the next call does not inherit it
}

}  // namespace

std::unique_ptr<CapturedGraph> capture_cuda_graph(const Call& call, int calls, int device_index) {
  auto device = static_cast<c10::DeviceIndex>(device_index);
  c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream(device);
  // Capture on the current stream when it can be captured (the device API's work stream), so
  // that work whose stream was fixed before the capture (a backward op's autograd nodes) lands
  // in the graph; only the default stream needs a side stream.
  bool on_default = current == c10::cuda::getDefaultCUDAStream(device);
  c10::cuda::CUDAStream side =
      on_default ? c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device) : current;
  if (on_default) join(side, current, "warmup");
  auto graph = std::make_unique<at::cuda::CUDAGraph>();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    // A side stream gets one eager call first (its library workspaces, lazy module loads). The
    // current stream needs none: the timers warm up on it before they capture, and a call and
    // synchronize before each of a measurement's 8 to 32 captures cost a screen about 3 ms a case.
    if (on_default) {
      try {
        call();
        check(cudaStreamSynchronize(side.stream()), "warmup", "cudaStreamSynchronize");
      } catch (const DeviceError&) {
        throw;
      } catch (const std::exception& e) {
        throw DeviceError("warmup", e.what());
      }
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
  if (on_default) join(current, side, "capture");
  return std::make_unique<CudaCapturedGraph>(std::move(graph), device_index);
}

}  // namespace caliber::cuda
