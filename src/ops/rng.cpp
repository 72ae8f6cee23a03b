// Random numbers and distributions. Outputs are checked for their range, not against a
// reference: the draws differ by design.
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/all.h>
#include <ATen/ops/bernoulli.h>
#include <ATen/ops/dropout.h>
#include <ATen/ops/full.h>
#include <ATen/ops/multinomial.h>
#include <ATen/ops/native_dropout.h>
#include <ATen/ops/normal.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/rand_like.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randint_like.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randn_like.h>
#include <ATen/ops/randperm.h>
#include <fmt/format.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

// "" when every element of `out` lies in [lo, hi] (and is finite).
std::string within(const at::Tensor& out, double lo, double hi) {
  at::Tensor v = out.detach().cpu().to(at::kDouble);
  if (v.numel() == 0) return "";
  if (!v.isfinite().all().item<bool>()) return "non-finite values";
  double mn = v.min().item<double>();
  double mx = v.max().item<double>();
  if (mn < lo || mx > hi)
    return fmt::format("values in [{}, {}], expected within [{}, {}]", mn, mx, lo, hi);
  if (v.numel() > 16 && mn == mx) return fmt::format("all {} values equal {}", v.numel(), mn);
  return "";
}

CheckFn range(double lo, double hi) {
  return [lo, hi](const Args&, const at::Tensor& out) { return within(out, lo, hi); };
}

// Cauchy samples are heavy-tailed: in float16 one in about 10^5 exceeds 65504 and becomes inf,
// so a 64x64 draw holds an inf a few percent of the time. Only NaN and a constant output are
// wrong.
std::string heavy_tailed(const Args&, const at::Tensor& out) {
  at::Tensor v = out.detach().cpu().to(at::kDouble);
  if (v.numel() == 0) return "";
  if (v.isnan().any().item<bool>()) return "NaN values";
  at::Tensor finite = v.masked_select(v.isfinite());
  if (finite.numel() < v.numel() / 2) return "mostly non-finite values";
  if (finite.numel() > 16 && finite.min().item<double>() == finite.max().item<double>()) {
    return "all values equal";
  }
  return "";
}

// Dropout keeps x / (1 - p) or writes 0.
std::string dropout_check(const Args& a, const at::Tensor& out) {
  at::Tensor x = a.t[0].detach().cpu().to(at::kDouble) * 2.0;
  at::Tensor y = out.detach().cpu().to(at::kDouble);
  at::Tensor ok = (y == 0) | ((y - x).abs() <= 1e-2 * x.abs() + 1e-2);
  if (!ok.all().item<bool>()) return "an element is neither dropped nor scaled by 1 / (1 - p)";
  return "";
}

// Shape and dims come from the case; creation ops read dtype and device from a.options.
void sizes_only(const BuildContext& c, Args& a) { a.lists = {c.dims()}; }

// test_rand.py and test_randn.py pass {'size': shape, 'dtype': dtype, 'device': device}.
SizeDetail size_dtype_device(const Args& a) { return creation_kwargs(a.lists[0], a.options); }

OpDef rng(const char* name, BuildFn inputs, CallFn call, CheckFn check) {
  return OpDef(name)
      .family(Family::kRng)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs(std::move(inputs))
      .call(std::move(call))
      .check(std::move(check))
      .rng()
      .flops(ops::output_numel);
}

const double kBig = 1e30;

}  // namespace

std::vector<OpDef> rng_ops() {
  using A = Args;
  const BuildFn one = ops::tensors(1);
  std::vector<OpDef> ops = {
      rng(
          "rand", sizes_only, [](A& a) { return at::rand(a.lists[0], a.options); }, range(0, 1))
          .detail(size_dtype_device),
      rng(
          "randn", sizes_only, [](A& a) { return at::randn(a.lists[0], a.options); },
          range(-kBig, kBig))
          .detail(size_dtype_device),
      rng(
          "rand_like", one, [](A& a) { return at::rand_like(a.t[0]); }, range(0, 1)),
      rng(
          "randn_like", one, [](A& a) { return at::randn_like(a.t[0]); }, range(-kBig, kBig)),
      rng(
          "randint", sizes_only, [](A& a) { return at::randint(0, 100, a.lists[0], a.options); },
          range(0, 99))
          .dtypes(ops::concat(kFloatDTypes, kIntDTypes)),
      rng(
          "randint_like", one, [](A& a) { return at::randint_like(a.t[0], 0, 100); }, range(0, 99)),
      rng(
          "uniform_", one, [](A& a) { return a.t[0].uniform_(-2, 2); }, range(-2, 2))
          .inplace(),
      rng(
          "normal_", one, [](A& a) { return a.t[0].normal_(); }, range(-kBig, kBig))
          .inplace(),
      // std 10 as in FlagGems' normal_tensor_float case. With std = 1, the schema's default,
      // torch hands a Python override the call without std, and FlagGems' normal_tensor_float
      // (std required) raises a TypeError on every case.
      rng(
          "normal", one, [](A& a) { return at::normal(a.t[0], 10.0); }, range(-kBig, kBig))
          .aten({"aten::normal.Tensor_float"}),
      rng(
          "bernoulli_", one, [](A& a) { return a.t[0].bernoulli_(0.5); }, range(0, 1))
          .inplace()
          .aten({"aten::bernoulli_.float"}),
      rng(
          "bernoulli",
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random(c, c.dims(), ops::Domain::kUnit).abs()};
          },
          [](A& a) { return at::bernoulli(a.t[0]); }, range(0, 1)),
      rng(
          "exponential_", one, [](A& a) { return a.t[0].exponential_(); }, range(0, kBig))
          .inplace(),
      rng(
          "cauchy_", one, [](A& a) { return a.t[0].cauchy_(); }, heavy_tailed)
          .inplace(),
      rng(
          "geometric_", one, [](A& a) { return a.t[0].geometric_(0.5); }, range(1, kBig))
          .inplace(),
      rng(
          "log_normal_", one, [](A& a) { return a.t[0].log_normal_(); }, range(0, kBig))
          .inplace(),
      rng(
          "dropout", one, [](A& a) { return at::dropout(a.t[0], 0.5, /*train=*/true); },
          dropout_check)
          .shape_key("UnaryPointwiseBenchmark")
          .more_shapes(ops::unary_more_shapes())
          .aten({"aten::native_dropout", "aten::dropout"}),
      rng(
          "native_dropout", one,
          [](A& a) { return std::get<0>(at::native_dropout(a.t[0], 0.5, true)); }, dropout_check),
      rng(
          "randperm", sizes_only,
          [](A& a) {
            int64_t n = 1;
            for (int64_t d : a.lists[0]) n *= d;
            return at::randperm(n, a.options.dtype(at::kLong));
          },
          range(0, kBig))
          .dtypes({DType::kInt64})
          .builtin_shapes({{64}, {1024}, {2048}, {4096}, {65536}}),
      // Weights as FlagGems' test_multinomial.py draws them, torch.rand in [0, 1). ATen's CUDA
      // kernel sums each row in the input dtype: 65536 weights in [0.5, 1.5) pass float16's
      // 65504, every probability becomes 0 and the sampler asserts.
      rng(
          "multinomial",
          [](const BuildContext& c, Args& a) { a.t = {at::rand(c.dims(), c.options())}; },
          [](A& a) { return at::multinomial(a.t[0], 8, /*replacement=*/true); }, range(0, kBig))
          .shape_key("GenericBenchmark2DOnly")
          .more_shapes(ops::generic_more_shapes_2d())
          .aten({"aten::multinomial"}),
      // FlagGems' normal overloads: mean 3, std 10, as full tensors or Python floats.
      rng(
          "normal_float_float_",
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random(c, c.dims())};
            a.f = {3.0, 10.0};
          },
          [](A& a) { return a.t[0].normal_(a.f[0], a.f[1]); }, range(-kBig, kBig))
          .inplace()
          .aten({"aten::normal_"}),
      rng(
          "normal_tensor_tensor",
          [](const BuildContext& c, Args& a) {
            a.t = {at::full(c.dims(), 3.0, c.options()), at::full(c.dims(), 10.0, c.options())};
          },
          [](A& a) { return at::normal(a.t[0], a.t[1]); }, range(-kBig, kBig))
          .aten({"aten::normal.Tensor_Tensor"}),
      rng(
          "normal_tensor_float",
          [](const BuildContext& c, Args& a) {
            a.t = {at::full(c.dims(), 3.0, c.options())};
            a.f = {10.0};
          },
          [](A& a) { return at::normal(a.t[0], a.f[0]); }, range(-kBig, kBig))
          .aten({"aten::normal.Tensor_float"}),
      rng(
          "normal_float_tensor",
          [](const BuildContext& c, Args& a) {
            a.t = {at::full(c.dims(), 10.0, c.options())};
            a.f = {3.0};
          },
          [](A& a) { return at::normal(a.f[0], a.t[0]); }, range(-kBig, kBig))
          .aten({"aten::normal.float_Tensor"})
          .detail([](const Args& a) {
            return SizeDetail{}.arg(PyValue::real_number(a.f[0])).arg(size_of(a.t[0]));
          }),
  };
  return ops;
}

}  // namespace caliber
