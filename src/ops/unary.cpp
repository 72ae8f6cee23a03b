// Pointwise unary ops: FlagGems' UnaryPointwiseBenchmark, one row per op.
#include <ATen/core/Tensor.h>
#include <ATen/ops/celu.h>
#include <ATen/ops/elu.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/hardsigmoid.h>
#include <ATen/ops/hardswish.h>
#include <ATen/ops/hardtanh.h>
#include <ATen/ops/leaky_relu.h>
#include <ATen/ops/log_sigmoid.h>
#include <ATen/ops/mish.h>
#include <ATen/ops/randn_like.h>
#include <ATen/ops/relu6.h>
#include <ATen/ops/selu.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/silu_backward.h>
#include <ATen/ops/softplus.h>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

using ops::Domain;

OpDef unary(const char* name, CallFn call, Domain domain = Domain::kNormal) {
  return OpDef(name)
      .family(Family::kUnary)
      .shape_key("UnaryPointwiseBenchmark")
      .shape_desc("(B), M, N")
      .more_shapes(ops::unary_more_shapes())
      .inputs(ops::tensors(1, domain))
      .call(std::move(call))
      .flops(ops::output_numel);
}

}  // namespace

std::vector<OpDef> unary_ops() {
  using A = Args;
  std::vector<OpDef> ops = {
      // absolute, absolute_ and absolute_out are ops of their own (unary_variants.cpp).
      unary("abs", [](A& a) { return a.t[0].abs(); }).dtypes(ops::float_and_int()),
      unary("abs_", [](A& a) { return a.t[0].abs_(); }).inplace(),
      unary("neg", [](A& a) { return a.t[0].neg(); }).dtypes(ops::float_and_int()),
      unary("neg_", [](A& a) { return a.t[0].neg_(); }).inplace(),
      unary("exp", [](A& a) { return a.t[0].exp(); }),
      unary("exp_", [](A& a) { return a.t[0].exp_(); }).inplace(),
      unary("exp2", [](A& a) { return a.t[0].exp2(); }),
      unary("expm1", [](A& a) { return a.t[0].expm1(); }),
      unary(
          "log", [](A& a) { return a.t[0].log(); }, Domain::kPositive),
      unary(
          "log_", [](A& a) { return a.t[0].log_(); }, Domain::kPositive)
          .inplace(),
      unary(
          "log2", [](A& a) { return a.t[0].log2(); }, Domain::kPositive),
      unary(
          "log10", [](A& a) { return a.t[0].log10(); }, Domain::kPositive),
      unary(
          "log1p", [](A& a) { return a.t[0].log1p(); }, Domain::kPositive),
      unary(
          "sqrt", [](A& a) { return a.t[0].sqrt(); }, Domain::kPositive),
      unary(
          "sqrt_", [](A& a) { return a.t[0].sqrt_(); }, Domain::kPositive)
          .inplace(),
      unary(
          "rsqrt", [](A& a) { return a.t[0].rsqrt(); }, Domain::kPositive),
      unary(
          "rsqrt_", [](A& a) { return a.t[0].rsqrt_(); }, Domain::kPositive)
          .inplace(),
      unary(
          "reciprocal", [](A& a) { return a.t[0].reciprocal(); }, Domain::kPositive),
      unary(
          "reciprocal_", [](A& a) { return a.t[0].reciprocal_(); }, Domain::kPositive)
          .inplace(),
      unary("sin", [](A& a) { return a.t[0].sin(); }),
      unary("sin_", [](A& a) { return a.t[0].sin_(); }).inplace(),
      unary("cos", [](A& a) { return a.t[0].cos(); }),
      unary("cos_", [](A& a) { return a.t[0].cos_(); }).inplace(),
      unary(
          "tan", [](A& a) { return a.t[0].tan(); }, Domain::kUnit),
      unary("tanh", [](A& a) { return a.t[0].tanh(); }),
      unary("tanh_", [](A& a) { return a.t[0].tanh_(); }).inplace(),
      unary("sigmoid", [](A& a) { return a.t[0].sigmoid(); }),
      unary("sigmoid_", [](A& a) { return a.t[0].sigmoid_(); }).inplace(),
      unary("relu", [](A& a) { return a.t[0].relu(); }),
      unary("relu_", [](A& a) { return a.t[0].relu_(); }).inplace(),
      unary("gelu", [](A& a) { return at::gelu(a.t[0]); }),
      unary("gelu_", [](A& a) { return at::gelu_(a.t[0]); }).inplace(),
      unary("silu", [](A& a) { return at::silu(a.t[0]); }),
      unary("silu_", [](A& a) { return at::silu_(a.t[0]); }).inplace(),
      unary("erf", [](A& a) { return a.t[0].erf(); }),
      unary("erf_", [](A& a) { return a.t[0].erf_(); }).inplace(),
      unary(
          "erfinv", [](A& a) { return a.t[0].erfinv(); }, Domain::kUnit)
          .tolerance(2),
      unary("ceil", [](A& a) { return a.t[0].ceil(); }),
      unary("floor", [](A& a) { return a.t[0].floor(); }),
      unary("round", [](A& a) { return a.t[0].round(); }),
      unary("trunc", [](A& a) { return a.t[0].trunc(); }),
      unary("frac", [](A& a) { return a.t[0].frac(); }),
      unary("sign", [](A& a) { return a.t[0].sign(); }),
      unary("sgn", [](A& a) { return a.t[0].sgn(); }),
      unary("square", [](A& a) { return a.t[0].square(); }),
      unary(
          "asin", [](A& a) { return a.t[0].asin(); }, Domain::kUnit),
      unary(
          "acos", [](A& a) { return a.t[0].acos(); }, Domain::kUnit),
      unary("atan", [](A& a) { return a.t[0].atan(); }),
      unary("sinh", [](A& a) { return a.t[0].sinh(); }),
      unary("cosh", [](A& a) { return a.t[0].cosh(); }),
      unary("asinh", [](A& a) { return a.t[0].asinh(); }),
      unary(
          "acosh", [](A& a) { return a.t[0].acosh(); }, Domain::kAboveOne),
      unary(
          "atanh", [](A& a) { return a.t[0].atanh(); }, Domain::kUnit),
      unary("mish", [](A& a) { return at::mish(a.t[0]); }),
      unary("elu", [](A& a) { return at::elu(a.t[0]); }),
      unary("selu", [](A& a) { return at::selu(a.t[0]); }),
      unary("celu", [](A& a) { return at::celu(a.t[0]); }),
      unary("softplus", [](A& a) { return at::softplus(a.t[0]); }),
      unary("hardswish", [](A& a) { return at::hardswish(a.t[0]); }),
      unary("hardsigmoid", [](A& a) { return at::hardsigmoid(a.t[0]); }),
      unary("leaky_relu", [](A& a) { return at::leaky_relu(a.t[0]); }),
      unary("relu6", [](A& a) { return at::relu6(a.t[0]); })
          .aten({"aten::relu6", "aten::hardtanh"}),
      unary("hardtanh", [](A& a) { return at::hardtanh(a.t[0]); }),
      unary("log_sigmoid", [](A& a) { return at::log_sigmoid(a.t[0]); })
          .aten({"aten::log_sigmoid_forward"}),
      unary("isnan", [](A& a) { return a.t[0].isnan(); }),
      unary("isinf", [](A& a) { return a.t[0].isinf(); }),
      unary("isfinite", [](A& a) { return a.t[0].isfinite(); }),
      unary("nan_to_num", [](A& a) { return a.t[0].nan_to_num(); }),
      unary(
          "lgamma", [](A& a) { return a.t[0].lgamma(); }, Domain::kPositive),
      unary(
          "digamma", [](A& a) { return a.t[0].digamma(); }, Domain::kPositive)
          .tolerance(2),
      unary("sinc", [](A& a) { return a.t[0].sinc(); }),
      unary("rad2deg", [](A& a) { return a.t[0].rad2deg(); }),
      unary("signbit", [](A& a) { return a.t[0].signbit(); }),
      unary("logical_not", [](A& a) { return a.t[0].logical_not(); })
          .dtypes(ops::concat(kFloatDTypes, kBoolDTypes)),
      unary("bitwise_not", [](A& a) { return a.t[0].bitwise_not(); })
          .dtypes(ops::concat(kIntDTypes, kBoolDTypes)),
      // Backward variants time torch::autograd::grad of the forward op.
      unary("gelu_backward", [](A& a) { return at::gelu(a.t[0]); }).backward(),
      // FlagGems' SiluBackwardBenchmark calls aten::silu_backward(grad_out, x) itself.
      unary("silu_backward", [](A& a) { return at::silu_backward(a.t[0], a.t[1]); })
          .inputs([](const BuildContext& c, Args& a) {
            at::Tensor x = ops::random(c, c.dims());
            a.t = {at::randn_like(x), x};
          }),
      unary("sigmoid_backward", [](A& a) { return a.t[0].sigmoid(); }).backward(),
      unary("tanh_backward", [](A& a) { return a.t[0].tanh(); }).backward(),
      unary("relu_backward", [](A& a) { return a.t[0].relu(); })
          .backward()
          .aten({"aten::threshold_backward"}),
      unary("elu_backward", [](A& a) { return at::elu(a.t[0]); }).backward(),
      unary("softplus_backward", [](A& a) { return at::softplus(a.t[0]); }).backward(),
      unary("mish_backward", [](A& a) { return at::mish(a.t[0]); }).backward(),
  };
  return ops;
}

}  // namespace caliber
