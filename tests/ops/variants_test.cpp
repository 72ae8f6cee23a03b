#include "ops/variants.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "ops/args.h"
#include "ops/op_registry.h"
#include "ops/schema_call.h"

namespace caliber {
namespace {

TEST(Variants, NamesFollowFlagGemsMarksAndAtenOverloads) {
  EXPECT_EQ(ops::variant_mark("acos", ops::kInplace), "acos_");
  EXPECT_EQ(ops::variant_mark("acos", ops::kOut), "acos_out");
  EXPECT_EQ(ops::variant_aten("acos", ops::kOut), "acos.out");
  EXPECT_EQ(ops::variant_aten("add.Tensor", ops::kInplace), "add_.Tensor");
  EXPECT_EQ(ops::variant_aten("float_power.Tensor_Scalar", ops::kOut),
            "float_power.Tensor_Scalar_out");
}

TEST(Variants, OneRowDerivesTheInplaceAndOutOps) {
  ops::Prototype proto = [](const std::string& name) {
    return OpDef(name).inputs([](const BuildContext& c, Args& a) {
      a.t.push_back(at::rand(c.dims(), c.options()) * 1.8 - 0.9);
    });
  };
  const auto derived = ops::derive(proto, {"arcsin", "arcsin", ops::kAll});
  ASSERT_EQ(derived.size(), 3u);
  EXPECT_EQ(derived[0].name(), "arcsin");
  EXPECT_EQ(derived[1].name(), "arcsin_");
  EXPECT_TRUE(derived[1].inplace());
  EXPECT_EQ(derived[2].name(), "arcsin_out");
  EXPECT_EQ(derived[2].aten(), std::vector<std::string>{"aten::arcsin.out"});

  BuildContext c;
  c.shape_case.shape = Shape{4, 8};
  Args a;
  derived[2].inputs()(c, a);
  ASSERT_EQ(a.t.size(), 2u);  // the input and its out= tensor
  at::Tensor out = derived[2].call()(a);
  EXPECT_TRUE(out.is_same(a.t[1]));
  EXPECT_TRUE(at::allclose(out, a.t[0].asin()));
}

TEST(SchemaCall, FillsScalarsFromArgsAndTheRestFromDefaultsOrFixedValues) {
  Args a;
  a.t = {at::tensor({-2.0, 3.0})};
  // leaky_relu's negative_slope defaults to 0.01.
  EXPECT_TRUE(at::allclose(ops::aten_call("aten::leaky_relu")(a), at::tensor({-0.02, 3.0})));
  // hardtanh(min_val, max_val) from Args::f in schema order.
  a.f = {-1.0, 1.0};
  EXPECT_TRUE(at::allclose(ops::aten_call("aten::hardtanh")(a), at::tensor({-1.0, 1.0})));
  a.f.clear();
  EXPECT_TRUE(at::allclose(ops::aten_call("aten::hardtanh", {{"max_val", 2.5}})(a),
                           at::tensor({-1.0, 2.5})));
}

TEST(SchemaCall, ATensorListTakesTheTensorsTheOutTensorLeaves) {
  Args a;
  a.t = {at::ones({2}), at::zeros({3}), at::empty({5})};
  at::Tensor out = ops::aten_call("aten::cat.out", {{"dim", int64_t{0}}})(a);
  EXPECT_TRUE(out.is_same(a.t[2]));
  EXPECT_EQ(out.sum().item<double>(), 2.0);
}

TEST(SchemaCall, UnknownOperatorIsAnError) {
  Args a;
  a.t = {at::ones({2})};
  EXPECT_ANY_THROW(ops::aten_call("aten::no_such_op")(a));
}

// FlagGems benchmarks `arccos` and `arccos_` as ops of their own; both are in the corpus.
TEST(Variants, RegistryHoldsDerivedVariants) {
  for (const char* name : {"arccos", "arccos_", "exp_out", "bitwise_and_tensor_", "sum_dim_out",
                           "fill_scalar_out", "reflection_pad1d_out", "mm_out"}) {
    EXPECT_NE(find_op_or_null(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace caliber
