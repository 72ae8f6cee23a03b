#include "ops/variants.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "ops/args.h"
#include "ops/input_detail.h"
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

TEST(Variants, AppenderAddsEachTableAfterWhatTheListHolds) {
  ops::Prototype proto = [](const std::string& name) { return OpDef(name); };
  std::vector<OpDef> out = {OpDef("first")};
  auto add = ops::appender(out);
  add(proto, {{"acos", "acos", ops::kBaseInplace}, {"exp", "exp", ops::kOut}});
  add(proto, {{"abs", "abs"}});
  std::vector<std::string> names;
  for (const OpDef& op : out) names.push_back(op.name());
  EXPECT_EQ(names, (std::vector<std::string>{"first", "acos", "acos_", "exp_out", "abs"}));
}

TEST(Variants, AlsoReachesAddsAnOperatorToTheNamedOpOnly) {
  std::vector<OpDef> ops = {OpDef("not_equal").aten({"aten::not_equal.Tensor"}),
                            OpDef("not_equal_").aten({"aten::not_equal_.Tensor"})};
  ops::also_reaches(ops, "not_equal_", "aten::ne_.Tensor");
  EXPECT_EQ(ops[0].aten(), std::vector<std::string>{"aten::not_equal.Tensor"});
  EXPECT_EQ(ops[1].aten(),
            (std::vector<std::string>{"aten::not_equal_.Tensor", "aten::ne_.Tensor"}));
  EXPECT_THROW(ops::also_reaches(ops, "ne_", "aten::ne_.Tensor"), std::logic_error);
}

TEST(Variants, NamedGivesTheOpOfThatNameToDeclareMoreOn) {
  std::vector<OpDef> ops = {OpDef("igammac"), OpDef("igammac_out")};
  ops::named(ops, "igammac_out").python_fn("igammac_out", {py_args::t(0), py_args::t(1)});
  EXPECT_FALSE(ops[0].python_fn().has_value());
  ASSERT_TRUE(ops[1].python_fn().has_value());
  EXPECT_EQ(ops[1].python_fn()->name, "igammac_out");
  EXPECT_THROW(ops::named(ops, "igammac_"), std::logic_error);
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

// FlagGems' input_fn yields what the schema takes: required fixed values (half_to_float),
// softmax backward's dtype, out= under its schema name; not a torch_op's keyword (logit's eps).
TEST(SchemaCall, DetailPrintsTheArgumentsTheCallerGivesInSchemaOrder) {
  Args a;
  a.t = {at::ones({4, 8}), at::empty({4, 8})};
  a.i = {1};
  EXPECT_EQ(ops::aten_call_detail("aten::_softmax.out", {ops::yielded("half_to_float", false)}, a)
                .to_string(),
            "([torch.Size([4, 8]), 1, False], {'out': torch.Size([4, 8])})");
  a.t = {at::ones({4, 8}), at::ones({4, 8}), at::empty({4, 8})};
  EXPECT_EQ(ops::aten_call_detail("aten::_softmax_backward_data.out", {}, a).to_string(),
            "([torch.Size([4, 8]), torch.Size([4, 8]), 1, torch.float32], "
            "{'grad_input': torch.Size([4, 8])})");
  Args x;
  x.t = {at::ones({4})};
  EXPECT_EQ(ops::aten_call_detail("aten::logit", {{"eps", 1e-6}}, x).to_string(),
            "[torch.Size([4])]");
  // batch_norm's training has no default, but FlagGems' torch_op fixes it, not its input_fn.
  x.t = {at::ones({2, 3}), at::ones({3}), at::ones({3})};
  x.f = {0.1, 1e-5};
  EXPECT_EQ(
      ops::aten_call_detail("aten::batch_norm", {{"training", true}, {"cudnn_enabled", true}}, x)
          .to_string(),
      "[torch.Size([2, 3]), torch.Size([3]), torch.Size([3]), 0.1, 1e-05]");
  // native_layer_norm(input, normalized_shape, weight, bias, eps): lists and floats in place.
  Args n;
  n.t = {at::ones({2, 8}), at::ones({8}), at::ones({8})};
  n.lists = {{8}};
  n.f = {1e-5};
  EXPECT_EQ(ops::aten_call_detail("aten::native_layer_norm", {}, n).to_string(),
            "[torch.Size([2, 8]), [8], torch.Size([8]), torch.Size([8]), 1e-05]");
}

TEST(SchemaCall, UnknownOperatorIsAnError) {
  Args a;
  a.t = {at::ones({2})};
  EXPECT_ANY_THROW(ops::aten_call("aten::no_such_op")(a));
}

// Size Detail of registry ops, built on the meta device as `ops --fidelity` builds them.
std::string detail_of(const char* name, Shape shape, DType dtype = DType::kFloat16) {
  const OpDef* op = find_op_or_null(name);
  if (op == nullptr) return std::string("no op ") + name;
  ShapeCase c;
  c.shape = std::move(shape);
  return case_size_detail(*op, c, dtype, "meta");
}

TEST(Variants, OpsPrintFlagGemsCallForms) {
  // UnaryReductionBenchmark yields (x,) for 1-D x: torch.max(x) reduces every element.
  EXPECT_EQ(detail_of("max_dim", Shape{1048576}), "[torch.Size([1048576])]");
  EXPECT_EQ(detail_of("max_dim", Shape{64, 64}), "[torch.Size([64, 64]), 1]");
  // ... but test_var.py's VarDimBenchmark yields (x, 0).
  EXPECT_EQ(detail_of("var_dim", Shape{1024}), "[torch.Size([1024]), 0]");
  EXPECT_EQ(detail_of("softmax_out", Shape{64, 64}),
            "([torch.Size([64, 64]), 1, False], {'out': torch.Size([64, 64])})");
  EXPECT_EQ(detail_of("log_softmax_backward_data", Shape{64, 64}),
            "[torch.Size([64, 64]), torch.Size([64, 64]), -1, torch.float16]");
  EXPECT_EQ(detail_of("silu_backward", Shape{64, 64}),
            "[torch.Size([64, 64]), torch.Size([64, 64])]");
  EXPECT_EQ(detail_of("layer_norm_backward", Shape{4, 8, 16}),
            "[torch.Size([4, 8, 16]), torch.Size([4, 8, 16]), [8, 16], torch.Size([4]), "
            "torch.Size([4]), torch.Size([8, 16]), torch.Size([8, 16]), [True, True, True]]");
  EXPECT_EQ(detail_of("div_scalar_", Shape{64, 64}), "[torch.Size([64, 64]), 0.001]");
  EXPECT_EQ(detail_of("rand", Shape{64, 64}, DType::kBFloat16),
            "{'size': [64, 64], 'dtype': torch.bfloat16, 'device': 'meta'}");
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
