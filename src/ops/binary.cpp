// Pointwise binary (and ternary) ops: FlagGems' BinaryPointwiseBenchmark, one row per op.
#include <ATen/core/Tensor.h>
#include <ATen/ops/threshold.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

using ops::Domain;

BuildFn operands(std::vector<Domain> domains) {
  return [domains](const BuildContext& c, Args& a) {
    for (Domain d : domains) a.t.push_back(ops::random(c, c.dims(), d));
  };
}

OpDef binary(const char* name, CallFn call, Domain first = Domain::kNormal,
             Domain second = Domain::kNormal) {
  return OpDef(name)
      .family(Family::kBinary)
      .shape_key("BinaryPointwiseBenchmark")
      .shape_desc("(B), M, N")
      .more_shapes(ops::binary_more_shapes())
      .inputs(operands({first, second}))
      .call(std::move(call))
      .flops(ops::output_numel);
}

// Tensor-scalar forms: FlagGems' GenericBenchmark keys.
OpDef with_scalar(const char* name, CallFn call, Domain domain = Domain::kNormal) {
  return OpDef(name)
      .family(Family::kBinary)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs(operands({domain}))
      .call(std::move(call))
      .flops(ops::output_numel);
}

OpDef ternary(const char* name, CallFn call, Domain third = Domain::kNormal) {
  return binary(name, std::move(call))
      .shape_keys({"GenericBenchmark"})
      .more_shapes(ops::generic_more_shapes())
      .inputs(operands({Domain::kNormal, Domain::kNormal, third}));
}

// x and a float FlagGems' input_fn passes after it (pow_tensor_scalar: 0.001, clamp_max: 3.14).
BuildFn tensor_and_scalar(double scalar) {
  return [scalar](const BuildContext& c, Args& a) {
    operands({Domain::kNormal})(c, a);
    a.f = {scalar};
  };
}

// addcmul/addcdiv: test_addcmul.py passes value=0.5 by keyword.
BuildFn with_value(BuildFn operands_fn, double value) {
  return [operands_fn, value](const BuildContext& c, Args& a) {
    operands_fn(c, a);
    a.f = {value};
  };
}

SizeDetail value_keyword(const Args& a) {
  SizeDetail d;
  for (const auto& t : a.t) d.arg(size_of(t));
  return d.kwarg("value", PyValue::real_number(a.f[0]));
}

}  // namespace

std::vector<OpDef> binary_ops() {
  using A = Args;
  const auto kPos = Domain::kPositive;
  std::vector<OpDef> ops = {
      binary("add", [](A& a) { return a.t[0].add(a.t[1]); })
          .dtypes(ops::concat(ops::float_and_int(), kComplexDTypes)),
      binary("add_", [](A& a) { return a.t[0].add_(a.t[1]); }).inplace(),
      binary("sub", [](A& a) { return a.t[0].sub(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("sub_", [](A& a) { return a.t[0].sub_(a.t[1]); }).inplace(),
      binary("mul", [](A& a) { return a.t[0].mul(a.t[1]); })
          .dtypes(ops::concat(ops::float_and_int(), kComplexDTypes)),
      binary("mul_", [](A& a) { return a.t[0].mul_(a.t[1]); }).inplace(),
      binary(
          "div", [](A& a) { return a.t[0].div(a.t[1]); }, Domain::kNormal, kPos)
          .dtypes(ops::float_and_int()),
      binary(
          "div_", [](A& a) { return a.t[0].div_(a.t[1]); }, Domain::kNormal, kPos)
          .inplace(),
      binary(
          "true_divide", [](A& a) { return a.t[0].true_divide(a.t[1]); }, Domain::kNormal, kPos),
      binary(
          "floor_divide", [](A& a) { return a.t[0].floor_divide(a.t[1]); }, Domain::kNormal, kPos)
          .dtypes(ops::float_and_int()),
      binary(
          "remainder", [](A& a) { return a.t[0].remainder(a.t[1]); }, Domain::kNormal, kPos)
          .dtypes(ops::float_and_int()),
      binary(
          "fmod", [](A& a) { return a.t[0].fmod(a.t[1]); }, Domain::kNormal, kPos)
          .dtypes(ops::float_and_int()),
      binary(
          "pow", [](A& a) { return a.t[0].pow(a.t[1]); }, kPos)
          .aten({"aten::pow.Tensor_Tensor"}),
      binary(
          "pow_", [](A& a) { return a.t[0].pow_(a.t[1]); }, kPos)
          .inplace(),
      binary("maximum", [](A& a) { return a.t[0].maximum(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("minimum", [](A& a) { return a.t[0].minimum(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("fmax", [](A& a) { return a.t[0].fmax(a.t[1]); }),
      binary("fmin", [](A& a) { return a.t[0].fmin(a.t[1]); }),
      binary("atan2", [](A& a) { return a.t[0].atan2(a.t[1]); }),
      binary("hypot", [](A& a) { return a.t[0].hypot(a.t[1]); }),
      binary("copysign", [](A& a) { return a.t[0].copysign(a.t[1]); }),
      binary("logaddexp", [](A& a) { return a.t[0].logaddexp(a.t[1]); }),
      binary("logaddexp2", [](A& a) { return a.t[0].logaddexp2(a.t[1]); }),
      binary(
          "xlogy", [](A& a) { return a.t[0].xlogy(a.t[1]); }, Domain::kNormal, kPos),
      binary("heaviside", [](A& a) { return a.t[0].heaviside(a.t[1]); }),
      binary("eq", [](A& a) { return a.t[0].eq(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("ne", [](A& a) { return a.t[0].ne(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("lt", [](A& a) { return a.t[0].lt(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("le", [](A& a) { return a.t[0].le(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("gt", [](A& a) { return a.t[0].gt(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("ge", [](A& a) { return a.t[0].ge(a.t[1]); }).dtypes(ops::float_and_int()),
      binary("logical_and", [](A& a) { return a.t[0].logical_and(a.t[1]); })
          .dtypes(ops::float_and_bool()),
      binary("logical_or", [](A& a) { return a.t[0].logical_or(a.t[1]); })
          .dtypes(ops::float_and_bool()),
      binary("logical_xor", [](A& a) { return a.t[0].logical_xor(a.t[1]); })
          .dtypes(ops::float_and_bool()),
      binary("bitwise_and", [](A& a) { return a.t[0].bitwise_and(a.t[1]); })
          .dtypes(ops::int_and_bool()),
      binary("bitwise_or", [](A& a) { return a.t[0].bitwise_or(a.t[1]); })
          .dtypes(ops::int_and_bool()),
      binary("bitwise_xor", [](A& a) { return a.t[0].bitwise_xor(a.t[1]); })
          .dtypes(ops::int_and_bool()),
      binary(
          "bitwise_left_shift", [](A& a) { return a.t[0].bitwise_left_shift(a.t[1]); },
          Domain::kNormal, Domain::kSmallInt)
          .dtypes(kIntDTypes),
      binary(
          "bitwise_right_shift", [](A& a) { return a.t[0].bitwise_right_shift(a.t[1]); },
          Domain::kNormal, Domain::kSmallInt)
          .dtypes(kIntDTypes),
      binary("gcd", [](A& a) { return a.t[0].gcd(a.t[1]); }).dtypes(kIntDTypes),
      binary("lcm", [](A& a) { return a.t[0].lcm(a.t[1]); }).dtypes(kIntDTypes),
      with_scalar("add_scalar", [](A& a) { return a.t[0].add(0.5); }).aten({"aten::add.Scalar"}),
      with_scalar("mul_scalar", [](A& a) { return a.t[0].mul(0.5); }).aten({"aten::mul.Scalar"}),
      with_scalar("eq_scalar", [](A& a) { return a.t[0].eq(0.5); }).aten({"aten::eq.Scalar"}),
      with_scalar("gt_scalar", [](A& a) { return a.t[0].gt(0.5); }).aten({"aten::gt.Scalar"}),
      with_scalar("pow_tensor_scalar", [](A& a) { return a.t[0].pow(a.f[0]); })
          .inputs(tensor_and_scalar(0.001))
          .aten({"aten::pow.Tensor_Scalar"}),
      with_scalar("clamp", [](A& a) { return a.t[0].clamp(-0.5, 0.5); }),
      with_scalar("clamp_", [](A& a) { return a.t[0].clamp_(-0.5, 0.5); }).inplace(),
      with_scalar("clamp_min", [](A& a) { return a.t[0].clamp_min(0.0); }),
      with_scalar("clamp_max", [](A& a) { return a.t[0].clamp_max(a.f[0]); })
          .inputs(tensor_and_scalar(3.14)),
      // 0.5 is exact in every float type: a threshold that rounds differently in bf16 than
      // in the float64 reference would flip elements that sit on it.
      with_scalar("threshold", [](A& a) { return at::threshold(a.t[0], 0.5, 20.0); }),
      ternary("lerp", [](A& a) { return a.t[0].lerp(a.t[1], a.t[2]); }).aten({"aten::lerp.Tensor"}),
      ternary("addcmul", [](A& a) { return a.t[0].addcmul(a.t[1], a.t[2], a.f[0]); })
          .inputs(with_value(operands({Domain::kNormal, Domain::kNormal, Domain::kNormal}), 0.5))
          .detail(value_keyword),
      ternary("addcmul_", [](A& a) { return a.t[0].addcmul_(a.t[1], a.t[2], a.f[0]); })
          .inputs(with_value(operands({Domain::kNormal, Domain::kNormal, Domain::kNormal}), 0.5))
          .detail(value_keyword)
          .inplace(),
      ternary(
          "addcdiv", [](A& a) { return a.t[0].addcdiv(a.t[1], a.t[2], a.f[0]); }, kPos)
          .inputs(with_value(operands({Domain::kNormal, Domain::kNormal, kPos}), 0.5))
          .detail(value_keyword),
      ternary("clamp_tensor", [](A& a) { return a.t[0].clamp(a.t[1], a.t[2]); })
          .aten({"aten::clamp.Tensor"}),
  };
  return ops;
}

}  // namespace caliber
