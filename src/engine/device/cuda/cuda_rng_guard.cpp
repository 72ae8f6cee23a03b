#include "engine/device/cuda/cuda_rng_guard.h"

#include <ATen/cuda/CUDAGeneratorImpl.h>

#include <mutex>

namespace caliber::cuda {
namespace {

class CudaRngGuard : public ScopedRngGuard {
 public:
  explicit CudaRngGuard(int device_index)
      : generator_(at::cuda::detail::getDefaultCUDAGenerator(
            static_cast<c10::DeviceIndex>(device_index))) {
    std::lock_guard<std::mutex> lock(generator_.mutex());
    saved_ = generator_.graphsafe_get_state();  // shares the live state object
    generator_.graphsafe_set_state(generator_.clone());
  }

  ~CudaRngGuard() override {
    std::lock_guard<std::mutex> lock(generator_.mutex());
    generator_.graphsafe_set_state(saved_);
  }

 private:
  at::Generator generator_;
  at::Generator saved_;
};

}  // namespace

std::unique_ptr<ScopedRngGuard> make_cuda_rng_guard(int device_index) {
  return std::make_unique<CudaRngGuard>(device_index);
}

}  // namespace caliber::cuda
