#include "engine/provider/python_provider.h"

#include <ATen/ops/add.h>
#include <ATen/ops/allclose.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/silu.h>
#include <gtest/gtest.h>
#include <pybind11/embed.h>

#include <cstdlib>
#include <regex>
#include <thread>

#include "core/error.h"
#include "engine/op_instance.h"
#include "engine/provider/embedded_python.h"
#include "engine/provider/loaded_libraries.h"
#include "ops/args.h"
#include "ops/op_registry.h"

namespace py = pybind11;

namespace caliber {
namespace {

// tests/providers/toy_override.py: overrides aten::add.Tensor and aten::relu for CPU and counts
// its calls.
class PythonProviderTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { setenv("PYTHONPATH", CALIBER_PROVIDER_TEST_DIR, 1); }
  // As the caliber binary does once its providers are gone; the next suite in this process
  // could not start Python again, so this suite is the last to use it.
  static void TearDownTestSuite() { shutdown_embedded_python(); }

  static long toy_calls(const char* kernel) {
    py::gil_scoped_acquire gil;
    return py::module_::import("toy_override").attr("calls")[kernel].cast<long>();
  }

  static Error failure_of(const std::string& spec) {
    try {
      make_provider(spec);
    } catch (const Error& e) {
      return e;
    }
    return Error(ErrorKind::kInternal, "no error");
  }

  const at::Tensor a_ = at::arange(-3, 3);
  const at::Tensor b_ = at::arange(0, 6);
};

TEST_F(PythonProviderTest, RunsTheOverrideInsideTheScopeOnly) {
  auto provider = make_provider("python:toy_override");
  const long before = toy_calls("add");

  at::add(a_, b_);
  EXPECT_EQ(toy_calls("add"), before);

  const at::Tensor sum = with_candidate(*provider, [&] { return at::add(a_, b_); });
  EXPECT_EQ(toy_calls("add"), before + 1);
  EXPECT_TRUE(at::equal(sum, at::arange(-3, 9, 2)));  // the override computes ATen's values

  at::add(a_, b_);
  EXPECT_EQ(toy_calls("add"), before + 1);
}

TEST_F(PythonProviderTest, EveryScopeRunsTheOverrideAgain) {
  auto provider = make_provider("python:toy_override");
  const long before = toy_calls("relu");
  for (int i = 0; i < 3; ++i) {
    with_candidate(*provider, [&] { at::relu(a_); });
    at::relu(a_);
  }
  EXPECT_EQ(toy_calls("relu"), before + 3);
}

TEST_F(PythonProviderTest, OverrideRunsWhenCalledFromAnotherCppThread) {
  auto provider = make_provider("python:toy_override");
  const long before = toy_calls("add");
  with_candidate(*provider, [&] { std::thread([&] { at::add(a_, b_); }).join(); });
  EXPECT_EQ(toy_calls("add"), before + 1);
}

TEST_F(PythonProviderTest, CoversOnlyTheOverriddenOperatorsOfTheDevice) {
  auto provider = make_provider("python:toy_override");
  const Coverage overridden = provider->covers({"aten::add.Tensor", "aten::relu"}, "cpu");
  EXPECT_TRUE(overridden.covered());
  EXPECT_EQ(overridden.overridden, (std::vector<std::string>{"aten::add.Tensor", "aten::relu"}));
  EXPECT_TRUE(overridden.baseline_intact());

  const Coverage other_op = provider->covers({"aten::mul.Tensor"}, "cpu");
  EXPECT_FALSE(other_op.covered());
  EXPECT_EQ(other_op.not_overridden, std::vector<std::string>{"aten::mul.Tensor"});

  EXPECT_FALSE(provider->covers({"aten::add.Tensor"}, "cuda").covered());  // CPU only
}

TEST_F(PythonProviderTest, NamesOperatorsTheDispatcherDoesNotKnow) {
  auto provider = make_provider("python:toy_override");
  const Coverage coverage = provider->covers({"aten::no_such_op", "aten::relu"}, "cpu");
  EXPECT_EQ(coverage.unknown, std::vector<std::string>{"aten::no_such_op"});
  EXPECT_TRUE(coverage.covered());
}

TEST_F(PythonProviderTest, RaisingOverrideBecomesAnOpFailureWithThePythonMessage) {
  auto provider = make_provider("python:toy_override:raising_context");
  try {
    with_candidate(*provider, [&] { at::add(a_, b_); });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOpFailure);
    EXPECT_EQ(std::string(e.what()),
              "python:toy_override:raising_context: ValueError: toy_override refuses to add");
  }
  // The scope was left on the way out: ATen's add is back and Python is usable again.
  EXPECT_TRUE(at::equal(at::add(a_, b_), at::arange(-3, 9, 2)));
  EXPECT_TRUE(provider->covers({"aten::add.Tensor"}, "cpu").covered());
}

TEST_F(PythonProviderTest, FailureOutsideTheCandidatePassesThroughUnchanged) {
  auto provider = make_provider("python:toy_override");
  EXPECT_THROW(with_candidate(*provider, [] { throw std::out_of_range("harness"); }),
               std::out_of_range);
}

TEST_F(PythonProviderTest, VersionNamesModuleVersionAndCheckoutCommit) {
  auto provider = make_provider("python:toy_override");
  EXPECT_EQ(provider->spec(), "python:toy_override");
  EXPECT_TRUE(std::regex_match(provider->version(),
                               std::regex(R"(toy_override 0\.1\.toy( \(git [0-9a-f]{40}\))?)")))
      << provider->version();
}

TEST_F(PythonProviderTest, EmbeddedTorchSharesTheProcessLibtorch) {
  auto provider = make_provider("python:toy_override");
  EXPECT_EQ(loaded_library_files("libtorch_cpu").size(), 1u);
  py::gil_scoped_acquire gil;
  EXPECT_TRUE(py::module_::import("sys").attr("modules").contains("torch"));
}

// Triton's allocator for kernels that need scratch memory at launch (tensor descriptors) raises
// until one is set: FlagGems' benchmark sets one for its FLA ops, and so does the provider.
py::module_ triton_allocation() { return py::module_::import("triton.runtime._allocation"); }

bool triton_importable() {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  try {
    triton_allocation();
    return true;
  } catch (const py::error_already_set&) {
    return false;
  }
}

TEST_F(PythonProviderTest, ACandidateLoadingTritonGetsAScratchAllocatorInItsScope) {
  if (!triton_importable()) GTEST_SKIP() << "this Python has no triton";
  auto provider = make_provider("python:toy_triton");
  {
    py::gil_scoped_acquire gil;
    triton_allocation().attr("_allocator").attr("set")(triton_allocation().attr("_NULL_ALLOCATOR"));
    EXPECT_THROW(triton_allocation().attr("_allocator").attr("get")()(64, 16, py::none()),
                 py::error_already_set);
  }
  with_candidate(*provider, [] {
    py::gil_scoped_acquire gil;
    py::object buffer = triton_allocation().attr("_allocator").attr("get")()(256, 128, py::none());
    EXPECT_EQ(buffer.attr("numel")().cast<long>(), 256);
    EXPECT_EQ(py::str(buffer.attr("dtype")).cast<std::string>(), "torch.uint8");
  });
}

TEST_F(PythonProviderTest, AnAllocatorTheCandidateSetItselfIsKept) {
  if (!triton_importable()) GTEST_SKIP() << "this Python has no triton";
  auto provider = make_provider("python:toy_triton");
  py::object own;
  {
    py::gil_scoped_acquire gil;
    own = py::eval("lambda size, alignment, stream: None");
    py::module_::import("triton").attr("set_allocator")(own);
  }
  with_candidate(*provider, [&] {
    py::gil_scoped_acquire gil;
    EXPECT_TRUE(triton_allocation().attr("_allocator").attr("get")().is(own));
  });
  py::gil_scoped_acquire gil;
  own = py::object();
}

// Fused ops declare the Python function a candidate may offer (OpDef::python_fn); toy_override
// has silu_and_mul, moe_sum and a wrong gelu_and_mul, and no reglu.
TEST_F(PythonProviderTest, AnOpDeclaringAFunctionIsCoveredByTheModulesFunction) {
  auto provider = make_provider("python:toy_override");
  const Coverage coverage = provider->covers_op(find_op("silu_and_mul"), "cpu");
  EXPECT_TRUE(coverage.covered());
  EXPECT_TRUE(coverage.function_declared);
  EXPECT_EQ(coverage.function, "toy_override.silu_and_mul");
  EXPECT_TRUE(coverage.overridden.empty());  // the dispatcher plays no part
}

TEST_F(PythonProviderTest, AnOpWhoseFunctionTheModuleLacksIsNotCovered) {
  auto provider = make_provider("python:toy_override");
  // reglu's composite calls aten::relu, which the toy's scope overrides: still not covered, since
  // that would time the toy's relu, not a fused reglu.
  const Coverage coverage = provider->covers_op(find_op("reglu"), "cpu");
  EXPECT_EQ(coverage.overridden, std::vector<std::string>{"aten::relu"});
  EXPECT_TRUE(coverage.function.empty());
  EXPECT_FALSE(coverage.covered());
  // An op without a declared function is still asked of the dispatcher alone.
  EXPECT_TRUE(provider->covers_op(find_op("add"), "cpu").covered());
}

TEST_F(PythonProviderTest, BoundFunctionRunsOnTheCasesTensors) {
  auto provider = make_provider("python:toy_override");
  const OpDef& op = find_op("silu_and_mul");
  OpInstance instance = instantiate(op, ShapeCase{Shape{4, 8}}, DType::kFloat32, {});
  const BoundFunction bound = provider->bind_function(*op.python_fn(), instance.args());
  const long before = toy_calls("silu_and_mul");
  bound.call();
  const at::Tensor result = bound.result();
  EXPECT_EQ(toy_calls("silu_and_mul"), before + 2);
  const Args& a = instance.args();
  EXPECT_TRUE(at::allclose(result, at::mul(at::silu(a.t[0]), a.t[1])));
  const Verification check = instance.compare_with(bound.result);
  EXPECT_TRUE(check.ok) << check.detail;
}

TEST_F(PythonProviderTest, ComparisonReadsAFunctionReturningNoneFromTheOpsOutput) {
  auto provider = make_provider("python:toy_override");
  const OpDef& op = find_op("moe_sum");
  OpInstance instance = instantiate(op, ShapeCase{Shape{4, 2, 8}}, DType::kFloat32, {});
  const BoundFunction bound = provider->bind_function(*op.python_fn(), instance.args());
  EXPECT_FALSE(bound.result().defined());
  const Verification check = instance.compare_with(bound.result);
  EXPECT_TRUE(check.ok) << check.detail;
}

TEST_F(PythonProviderTest, ComparisonRefusesAFunctionWithAnotherResult) {
  auto provider = make_provider("python:toy_override");
  const OpDef& op = find_op("gelu_and_mul");
  OpInstance instance = instantiate(op, ShapeCase{Shape{4, 8}}, DType::kFloat32, {});
  const Verification check =
      instance.compare_with(provider->bind_function(*op.python_fn(), instance.args()).result);
  EXPECT_FALSE(check.ok);
  EXPECT_NE(check.detail.find("elements outside"), std::string::npos) << check.detail;
}

// FlagGems' rwkv_ka_fusion returns (o_k, o_kk, o_kka); the op's composite returns o_kka, and its
// binding names that element.
TEST_F(PythonProviderTest, ATupleResultIsComparedThroughTheDeclaredElement) {
  auto provider = make_provider("python:toy_override");
  const OpDef& op = find_op("rwkv_ka_fusion");
  ASSERT_EQ(op.python_fn()->result, 2u);
  EXPECT_EQ(to_string(*op.python_fn()), "rwkv_ka_fusion(t[0], t[1], t[2], t[3], i[0], i[1])[2]");
  OpInstance instance = instantiate(op, ShapeCase{Shape{4}}, DType::kFloat32, {});
  const BoundFunction bound = provider->bind_function(*op.python_fn(), instance.args());
  const Verification check = instance.compare_with(bound.result);
  EXPECT_TRUE(check.ok) << check.detail;
  // The first element (o_k) is another tensor of the same shape: comparing it must fail.
  PythonFn first = *op.python_fn();
  first.result = 0;
  const Verification wrong =
      instance.compare_with(provider->bind_function(first, instance.args()).result);
  EXPECT_FALSE(wrong.ok);
  PythonFn past_end = first;
  past_end.result = 3;
  const BoundFunction beyond = provider->bind_function(past_end, instance.args());
  try {
    beyond.result();
    ADD_FAILURE() << "element 3 of a 3-tuple was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("returned a sequence of 3, no element 3"),
              std::string::npos)
        << e.what();
  }
}

// Args keeps mrope's booleans as ints and has axis_map on the GLM rows only: flag(k) passes a
// bool, t_or_none(k) the tensor or None.
TEST_F(PythonProviderTest, FlagsBindAsBoolsAndAMissingOptionalTensorAsNone) {
  auto provider = make_provider("python:toy_override");
  const OpDef& op = find_op("mrope");
  auto seen = [&](const Shape& shape) {
    OpInstance instance = instantiate(op, ShapeCase{shape}, DType::kBFloat16, {});
    provider->bind_function(*op.python_fn(), instance.args()).result();
    py::gil_scoped_acquire gil;
    py::dict last = py::module_::import("toy_override").attr("last_mrope");
    std::string text;
    for (const char* key : {"is_interleaved", "is_interleaved_glm", "is_neox_style", "axis_map"}) {
      py::object value = last[key];
      text += std::string(key) + "=" +
              (py::isinstance<py::bool_>(value)
                   ? py::str(value).cast<std::string>()
                   : py::str(py::type::of(value).attr("__name__")).cast<std::string>()) +
              " ";
    }
    return text;
  };
  // num_tokens, q_heads, kv_heads, head_size, rotary_dim, st, sh, sw, neox, interleaved, glm.
  EXPECT_EQ(seen(Shape{1, 28, 4, 128, 128, 24, 20, 20, 1, 0, 0}),
            "is_interleaved=False is_interleaved_glm=False is_neox_style=True "
            "axis_map=NoneType ");
  EXPECT_EQ(seen(Shape{1, 28, 4, 128, 64, 8, 12, 12, 1, 1, 1}),
            "is_interleaved=True is_interleaved_glm=True is_neox_style=True axis_map=Tensor ");
}

TEST_F(PythonProviderTest, MissingModuleIsAUsageError) {
  const Error error = failure_of("python:no_such_caliber_module");
  EXPECT_EQ(error.kind(), ErrorKind::kUsage);
  EXPECT_NE(std::string(error.what()).find("No module named 'no_such_caliber_module'"),
            std::string::npos)
      << error.what();
}

TEST_F(PythonProviderTest, MissingContextCallableIsAUsageError) {
  const Error error = failure_of("python:toy_override:no_such_context");
  EXPECT_EQ(error.kind(), ErrorKind::kUsage);
  EXPECT_NE(std::string(error.what()).find("no callable no_such_context"), std::string::npos)
      << error.what();
}

}  // namespace
}  // namespace caliber
