#include "backend/failure_classifier.h"

#include <gtest/gtest.h>

#include "backend/registry.h"

namespace caliber {
namespace {

CaptureVerdict cuda_verdict(const std::string& message) {
  return find_backend("", "cuda").classifier.classify(message);
}

TEST(FailureClassifier, CudaCaptureRefusals) {
  EXPECT_EQ(cuda_verdict("CUDA error: operation not permitted when stream is capturing"),
            CaptureVerdict::kRefused);
  EXPECT_EQ(cuda_verdict("CUDA error: operation failed due to a previous error during capture"),
            CaptureVerdict::kRefused);
  EXPECT_EQ(cuda_verdict("Cannot call CUDAGeneratorImpl::current_seed during CUDA graph capture"),
            CaptureVerdict::kRefused);
}

TEST(FailureClassifier, CudaFatalWinsOverCaptureWording) {
  EXPECT_EQ(cuda_verdict("CUDA error: an illegal memory access was encountered"),
            CaptureVerdict::kFatal);
  EXPECT_EQ(cuda_verdict("CUDA error: device-side assert triggered while stream is capturing"),
            CaptureVerdict::kFatal);
  EXPECT_EQ(cuda_verdict("CUDA error: unspecified launch failure"), CaptureVerdict::kFatal);
}

TEST(FailureClassifier, TorchsBoilerplateAboutDeviceSideAssertionsIsNotFatal) {
  // What torch 2.11 raised for nonzero under capture on an H200 (2026-11-29), first lines.
  EXPECT_EQ(cuda_verdict("CUDA error: operation not permitted when stream is capturing\n"
                         "Search for `cudaErrorStreamCaptureUnsupported' in https://docs.nvidia."
                         "com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more "
                         "information.\nCUDA kernel errors might be asynchronously reported at "
                         "some other API call\nFor debugging consider passing "
                         "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable "
                         "device-side assertions.\n"),
            CaptureVerdict::kRefused);
}

TEST(FailureClassifier, CudaPoisoned) {
  EXPECT_EQ(cuda_verdict("capture sequence contains a fork that was not joined to the primary "
                         "stream"),
            CaptureVerdict::kPoisoned);
}

TEST(FailureClassifier, UnmatchedWordingIsUnknown) {
  EXPECT_EQ(cuda_verdict("Expected all tensors to be on the same device"),
            CaptureVerdict::kUnknown);
  EXPECT_EQ(find_backend("", "cpu").classifier.classify("anything"), CaptureVerdict::kUnknown);
}

TEST(FailureClassifier, RocmWording) {
  const auto& rocm = find_backend("", "rocm").classifier;
  EXPECT_EQ(rocm.classify("Memory access fault by GPU node-2"), CaptureVerdict::kFatal);
  EXPECT_EQ(rocm.classify("hipErrorStreamCaptureUnsupported"), CaptureVerdict::kRefused);
}

}  // namespace
}  // namespace caliber
