#include "engine/provider/dispatch_snapshot.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <gtest/gtest.h>
#include <torch/library.h>

#include <memory>

namespace caliber {
namespace {

// FlagGems registers kernels under bare names that have no schema (aten::bitwise_left_shift,
// whose overloads are .Tensor, .Scalar_Tensor and .Tensor_Scalar): the dispatcher learns the
// name, but no call can reach the kernel, so the name's identity must not change.
TEST(DispatchSnapshot, AKernelUnderANameWithoutSchemaChangesNoIdentity) {
  const c10::OperatorName bare("aten::bitwise_left_shift", "");
  ASSERT_FALSE(c10::Dispatcher::singleton().findOp(bare).has_value());
  const auto before = kernel_identity("aten::bitwise_left_shift", "cpu");
  ASSERT_TRUE(before.has_value());
  const auto snapshot = DispatchSnapshot::take();
  ASSERT_EQ(snapshot.kernel("aten::bitwise_left_shift", "cpu"), before);
  {
    auto orphan = std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                   c10::DispatchKey::CPU, __FILE__, __LINE__);
    orphan->impl("bitwise_left_shift",
                 [](const at::Tensor& self, const at::Tensor& /*other*/) { return self.clone(); });
    const auto handle = c10::Dispatcher::singleton().findOp(bare);
    ASSERT_TRUE(handle.has_value());
    ASSERT_FALSE(handle->hasSchema());

    EXPECT_EQ(kernel_identity("aten::bitwise_left_shift", "cpu"), before);
    EXPECT_EQ(DispatchSnapshot::take().kernel("aten::bitwise_left_shift", "cpu"), before);
  }
  EXPECT_EQ(kernel_identity("aten::bitwise_left_shift", "cpu"), before);
}

// A named overload without a schema is no operator at all.
TEST(DispatchSnapshot, ANamedOverloadWithoutSchemaHasNoIdentity) {
  auto orphan = std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                 c10::DispatchKey::CPU, __FILE__, __LINE__);
  orphan->impl("isfinite.out", [](const at::Tensor& self, at::Tensor& out) -> at::Tensor& {
    return out.copy_(self);
  });
  EXPECT_FALSE(kernel_identity("aten::isfinite.out", "cpu").has_value());
  EXPECT_FALSE(DispatchSnapshot::take().kernel("aten::isfinite.out", "cpu").has_value());
}

}  // namespace
}  // namespace caliber
