// Pointwise unary ops derived from one row each: aliases (`arccos`), in-place (`acos_`) and out=
// (`acos_out`) variants, and the special_* functions FlagGems benchmarks as
// UnaryPointwiseBenchmark (UnaryPointwiseOutBenchmark for `_out`: an empty_like out= tensor).
#include <ATen/TensorOperators.h>
#include <ATen/ops/ones_like.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::Domain;
using ops::kAll;
using ops::kBase;
using ops::kBaseInplace;
using ops::kInplace;
using ops::kOut;

ops::Prototype unary(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [inputs, dtypes](const std::string& name) {
    return OpDef(name)
        .family(Family::kUnary)
        .shape_key("UnaryPointwiseBenchmark")
        .shape_desc("(B), M, N")
        .more_shapes(ops::unary_more_shapes())
        .dtypes(dtypes)
        .inputs(inputs)
        .flops(ops::output_numel);
  };
}

ops::Prototype unary(Domain domain = Domain::kNormal, std::vector<DType> dtypes = kFloatDTypes) {
  return unary(ops::tensors(1, domain), std::move(dtypes));
}

}  // namespace

std::vector<OpDef> unary_variant_ops() {
  const std::vector<DType> kFloat32 = {DType::kFloat32};
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  // Rows whose base op is already in unary.cpp derive only the variants missing there.
  add(unary(), {
                   {"absolute", "absolute", kBaseInplace},
                   {"arctan", "arctan", kBaseInplace},
                   {"arcsinh", "arcsinh", kAll},
                   {"asinh", "asinh", kInplace},
                   {"atan", "atan", kInplace},
                   {"ceil", "ceil", kInplace | kOut},
                   {"celu", "celu", kInplace},
                   {"cosh", "cosh", kInplace | kOut},
                   {"deg2rad", "deg2rad", kAll},
                   {"elu", "elu", kInplace},
                   {"erfc", "erfc", kBaseInplace},
                   {"exp", "exp", kOut},
                   {"exp2", "exp2", kInplace},
                   {"expm1", "expm1", kInplace | kOut},
                   {"fix", "fix", kBaseInplace},
                   {"floor", "floor", kInplace | kOut},
                   {"frac", "frac", kInplace},
                   {"hardshrink", "hardshrink", kBase | kOut},
                   {"hardsigmoid", "hardsigmoid", kInplace | kOut},
                   {"hardswish", "hardswish", kInplace | kOut},
                   {"hardtanh", "hardtanh", kInplace},
                   {"isneginf", "isneginf", kBase},
                   {"isposinf", "isposinf", kBase},
                   {"leaky_relu", "leaky_relu", kInplace | kOut},
                   {"mish", "mish", kInplace},
                   {"negative", "negative", kBaseInplace},
                   {"rad2deg", "rad2deg", kInplace},
                   {"round", "round", kInplace | kOut},
                   {"selu", "selu", kInplace},
                   {"sgn", "sgn", kInplace | kOut},
                   {"sign", "sign", kOut},
                   {"sinc", "sinc", kInplace},
                   {"sinh", "sinh", kInplace},
                   {"softshrink", "softshrink", kBase | kOut},
                   {"square", "square", kInplace | kOut},
                   {"special_erf", "special_erf"},
                   {"special_erfc", "special_erfc"},
                   {"trunc", "trunc", kInplace},
                   {"frexp", "frexp.Tensor"},
                   {"signbit", "signbit", kOut},
                   {"isneginf", "isneginf", kOut},
                   {"special_exp2", "special_exp2"},
                   {"special_expit", "special_expit"},
                   {"special_round", "special_round", kBase | kOut},
                   {"special_sinc", "special_sinc"},
                   {"special_i1", "special_i1", kBase | kOut},
                   {"special_i1e", "special_i1e"},
                   {"special_i0e", "special_i0e", kBase | kOut},
                   {"i0", "i0", kAll},
                   {"log_sigmoid_forward", "log_sigmoid_forward"},
               });
  add(unary(Domain::kUnit), {
                                {"acos", "acos", kInplace},
                                {"arccos", "arccos", kBaseInplace},
                                {"arcsin", "arcsin", kAll},
                                {"asin", "asin", kInplace},
                                {"atanh", "atanh", kInplace},
                                {"arctanh", "arctanh", kAll},
                                {"erfinv", "erfinv", kInplace},
                                {"special_erfinv", "special_erfinv", kBase | kOut},
                                {"tan", "tan", kInplace},
                                {"logit", "logit", kAll, {{"eps", 1e-6}}},
                            });
  add(unary(Domain::kAboveOne), {
                                    {"acosh", "acosh", kInplace},
                                    {"arccosh", "arccosh", kAll},
                                });
  add(unary(Domain::kPositive), {
                                    {"digamma", "digamma", kInplace},
                                    {"special_digamma", "special_digamma"},
                                    {"lgamma", "lgamma", kInplace},
                                    {"special_gammaln", "special_gammaln", kBase | kOut},

                                    {"log10", "log10", kInplace | kOut},
                                    {"log1p", "log1p", kInplace},
                                    {"special_log1p", "special_log1p", kBase | kOut},
                                    {"log2", "log2", kInplace},

                                });
  // mvlgamma(p=5) is defined for x > (p - 1) / 2 = 2.
  BuildFn above_two = [](const BuildContext& c, Args& a) {
    a.t.push_back(ops::random(c, c.dims(), Domain::kPositive) + 2.0);
  };
  add(unary(above_two),
      {
          {"mvlgamma", "mvlgamma", kBaseInplace, {{"p", int64_t{5}}}},
          {"special_multigammaln", "special_multigammaln", kBase, {{"p", int64_t{5}}}},
      });
  add(unary(Domain::kNormal, kFloat32), {
                                            {"special_airy_ai", "special_airy_ai", kBase | kOut},
                                            {"special_bessel_j1", "special_bessel_j1"},
                                            {"special_erfcx", "special_erfcx"},
                                        });
  add(unary(Domain::kPositive, kFloat32),
      {
          {"special_modified_bessel_k0", "special_modified_bessel_k0", kBase | kOut},
          {"special_modified_bessel_k1", "special_modified_bessel_k1", kBase | kOut},
          {"special_scaled_modified_bessel_k1", "special_scaled_modified_bessel_k1", kBase | kOut},
      });
  add(unary(Domain::kNormal, {DType::kFloat32, DType::kFloat64}),
      {{"special_bessel_j0", "special_bessel_j0"}});
  add(unary(Domain::kPositive, {DType::kFloat32, DType::kFloat64}),
      {{"special_bessel_y0", "special_bessel_y0"}});
  add(unary(Domain::kNormal,
            ops::concat(ops::concat(kComplexDTypes, {DType::kFloat32}), ops::int_and_bool())),
      {{"angle", "angle"}});
  // polygamma(1, x): FlagGems times the trigamma function.
  add(unary([](const BuildContext& c, Args& a) {
        a.t.push_back(ops::random(c, c.dims(), Domain::kPositive));
        a.i.push_back(1);
      }),
      {{"polygamma", "polygamma", ops::kAll}});
  // logit_backward(ones_like(a), rand_like(a), 1e-6): the gradient and x in [0, 1).
  add(unary([](const BuildContext& c, Args& a) {
        at::Tensor x = ops::random(c, c.dims(), Domain::kUnit).abs();
        a.t = {at::ones_like(x), x};
        a.f = {1e-6};
      }),
      {{"logit_backward", "logit_backward"}});
  auto generic = [](ops::Prototype proto) -> ops::Prototype {
    return [proto](const std::string& name) {
      return proto(name).shape_keys({"GenericBenchmark"}).more_shapes(ops::generic_more_shapes());
    };
  };
  add(generic(unary()),
      {
          {"nan_to_num", "nan_to_num", kInplace},
          {"threshold", "threshold", kInplace, {{"threshold", 0.0}, {"value", -1.0}}},
      });
  // FlagGems' GluBenchmark: UnaryPointwiseBenchmark's shapes, its own extra shapes (even last
  // dims), glu over the last dim; glu_backward is the same call differentiated.
  auto glu = [](bool backward) -> ops::Prototype {
    return [=](const std::string& name) {
      return unary()(name)
          .more_shapes({{1024, 2},
                        {1024, 32},
                        {1024, 512},
                        {1024, 8192},
                        {1024, 131072},
                        {64, 64, 2},
                        {64, 64, 32},
                        {64, 64, 512},
                        {64, 64, 8192}})
          .backward(backward);
    };
  };
  add(glu(false), {{"glu", "glu"}});
  add(glu(true), {{"glu_backward", "glu"}});
  out.back().aten({"aten::glu_backward"});  // what the timed autograd call dispatches
  // torch.diff(x) along the last dim: FlagGems' `diff` key (GenericBenchmark2DOnly's shapes
  // with every dim >= 2, and its own five).
  add(
      [](const std::string& name) {
        return unary()(name).shape_keys({"diff"}).more_shapes(ops::generic_more_shapes_2d());
      },
      {{"diff", "diff"}});
  add(unary(Domain::kNormal, kIntDTypes), {{"bitwise_not", "bitwise_not", kInplace}});
  add(unary(Domain::kNormal, ops::int_and_bool()), {{"logical_not", "logical_not", kInplace}});
  return out;
}

}  // namespace caliber
