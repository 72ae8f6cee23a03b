#include <ATen/ops/tensor.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ops/args.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

at::Tensor call(const std::string& op, std::vector<at::Tensor> inputs) {
  Args args;
  args.t = std::move(inputs);
  return find_op(op).call()(args);
}

at::Tensor row(std::vector<double> values) {
  return at::tensor(values, at::kDouble).reshape({1, -1});
}

void expect_row(const at::Tensor& out, const std::vector<double>& expected) {
  ASSERT_EQ(out.numel(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(out.flatten()[i].item<double>(), expected[i], 1e-6) << "element " << i;
  }
}

// x1 + x2 = [3, 4]: mean of squares 12.5, so each element is scaled by 1 / sqrt(12.5 + 1e-5)
// and then by its weight [2, 0.5].
TEST(FusedOps, AddRmsNormScalesTheSumByItsRootMeanSquare) {
  at::Tensor out =
      call("add_rms_norm", {row({3, -1}), row({0, 5}), at::tensor({2.0, 0.5}, at::kDouble)});
  const double scale = 1.0 / std::sqrt(12.5 + 1e-5);
  expect_row(out, {3 * scale * 2, 4 * scale * 0.5});
}

// swiglu halves the last dim: silu([1, -2]) * [3, 0.5], silu(v) = v / (1 + exp(-v)).
TEST(FusedOps, SwigluGatesTheSecondHalfWithSiluOfTheFirst) {
  at::Tensor out = call("swiglu", {row({1, -2, 3, 0.5})});
  auto silu = [](double v) { return v / (1 + std::exp(-v)); };
  expect_row(out, {silu(1) * 3, silu(-2) * 0.5});
}

// dswiglu(grad, [a, b]) = [grad * b * silu'(a), grad * silu(a)], silu'(v) = s + v s (1 - s).
TEST(FusedOps, DswigluConcatenatesTheGradientsOfBothHalves) {
  at::Tensor out = call("dswiglu", {row({2}), row({1, 3})});
  const double s = 1 / (1 + std::exp(-1.0));
  expect_row(out, {2 * 3 * (s + s * (1 - s)), 2 * s});
}

}  // namespace
}  // namespace caliber
