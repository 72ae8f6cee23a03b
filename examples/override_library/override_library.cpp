// An example candidate library: CPU and CUDA overrides of aten::add.Tensor, aten::relu and
// aten::neg, registered at run time through the ABI of include/caliber/provider.h.
//
// Each override computes the same values as ATen through another ATen operator (an override
// must never call the operator it overrides: that would dispatch back to itself) and counts its
// calls, which is how the tests see that the candidate's kernel ran.
#include <initializer_list>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/sub.h>
#include <caliber/provider.h>
#include <torch/library.h>

#include <atomic>
#include <exception>
#include <memory>
#include <string>

namespace {

std::atomic<long> g_calls{0};
std::unique_ptr<torch::Library> g_library;  // owns every registration; reset() drops them
std::string g_error;

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  ++g_calls;
  return at::sub(self, other, -alpha);
}

at::Tensor relu(const at::Tensor& self) {
  ++g_calls;
  return at::clamp_min(self, 0);
}

at::Tensor neg(const at::Tensor& self) {
  ++g_calls;
  return at::mul(self, -1);
}

}  // namespace

extern "C" {

CALIBER_PROVIDER_EXPORT int caliber_provider_register(void) {
  try {
    // The equivalent of TORCH_LIBRARY_IMPL(aten, CPU/CUDA, m), made at run time so that the
    // registrations live exactly as long as this object.
    auto library = std::make_unique<torch::Library>(torch::Library::IMPL, "aten", std::nullopt,
                                                    __FILE__, __LINE__);
    for (const auto key : {c10::DispatchKey::CPU, c10::DispatchKey::CUDA}) {
      library->impl("add.Tensor", torch::dispatch(key, TORCH_FN(add)));
      library->impl("relu", torch::dispatch(key, TORCH_FN(relu)));
      library->impl("neg", torch::dispatch(key, TORCH_FN(neg)));
    }
    g_library = std::move(library);
    return 0;
  } catch (const std::exception& e) {
    g_error = e.what();
    return 1;
  }
}

CALIBER_PROVIDER_EXPORT void caliber_provider_unregister(void) { g_library.reset(); }

CALIBER_PROVIDER_EXPORT const char* caliber_provider_version(void) { return "example 1.0"; }

CALIBER_PROVIDER_EXPORT const char* caliber_provider_error(void) { return g_error.c_str(); }

// Not part of the ABI: lets the tests see that the overrides ran.
CALIBER_PROVIDER_EXPORT long caliber_example_override_calls(void) { return g_calls.load(); }

}  // extern "C"
