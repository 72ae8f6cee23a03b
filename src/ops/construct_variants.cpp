// Fills and draws by their ATen overloads, one row each, with FlagGems' input_fn values
// (fill's 3.14159, cauchy's median 0 / sigma 1, geometric's p 0.5, dropout's p 0.5).
#include <ATen/ops/empty.h>
#include <ATen/ops/isnan.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros.h>

#include <cmath>
#include <functional>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kAll;
using ops::kBase;
using ops::kBaseInplace;
using ops::kOut;

constexpr double kFillValue = 3.14159;

ops::Prototype generic(Family family, BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(family)
        .shape_key("GenericBenchmark")
        .more_shapes(ops::generic_more_shapes())
        .dtypes(dtypes)
        .inputs(inputs)
        .flops(ops::output_numel);
  };
}

// FlagGems fills `torch.empty(shape)`: the input's values do not matter.
BuildFn empty_then(std::vector<double> floats) {
  return [=](const BuildContext& c, Args& a) {
    a.t.push_back(at::empty(c.dims(), c.options()));
    a.f = floats;
  };
}

BuildFn random_then(std::vector<double> floats, ops::Domain domain = ops::Domain::kNormal) {
  return [=](const BuildContext& c, Args& a) {
    a.t.push_back(ops::random(c, c.dims(), domain));
    a.f = floats;
  };
}

// Draws differ from any reference by design: a draw is wrong when it holds NaN or is constant.
std::string drawn(const Args&, const at::Tensor& out) {
  if (!out.defined()) return "no output";
  at::Tensor v = out.detach().cpu().to(at::kDouble);
  if (v.numel() == 0) return "";
  if (v.isnan().any().item<bool>()) return "NaN values";
  if (v.numel() > 16 && v.min().item<double>() == v.max().item<double>()) {
    return "all values equal";
  }
  return "";
}

ops::Prototype random_draw(ops::Prototype proto) {
  return [proto](const std::string& name) { return proto(name).rng().check(drawn); };
}

}  // namespace

std::vector<OpDef> construct_variant_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  const auto kConstruct = Family::kConstruct;
  add(generic(kConstruct, empty_then({kFillValue})),
      {
          {"fill_scalar", "fill.Scalar", kAll},
          // FlagGems' fill_tensor tests pass the value as a Python float, so torch dispatches the
          // Scalar overload for them; only fill_tensor_out passes a 0-dim tensor.
          {"fill_tensor", "fill.Scalar", kBaseInplace},
      });
  add(generic(kConstruct,
              [](const BuildContext& c, Args& a) {
                a.t.push_back(at::empty(c.dims(), c.options()));
                a.t.push_back(at::scalar_tensor(kFillValue, c.options()));
              }),
      {{"fill_tensor", "fill.Tensor", kOut}});
  add(generic(kConstruct, empty_then({})), {{"zero", "zero", kBase | kOut}});
  add(generic(kConstruct,
              [](const BuildContext& c, Args& a) {
                a.t.push_back(ops::random(c, c.dims()));
                a.lists.push_back(c.dims());
                a.f.push_back(3.1415926);
              }),
      {{"new_full", "new_full"}});
  add(random_draw(generic(Family::kRng, empty_then({0.0, 1.0}))), {{"cauchy", "cauchy"}});
  add(random_draw(generic(Family::kRng, random_then({0.5}))), {{"geometric", "geometric"}});
  add(random_draw(generic(Family::kRng, random_then({}))), {{"exponential", "exponential"}});
  // FlagGems registers only exponential_, which ATen's composite of exponential calls on its
  // fresh tensor (the whole of its work); a python_fn would compare two draws element by element.
  ops::also_reaches(out, "exponential", "aten::exponential_");
  // Creation ops sized by the shape's element count (dtype and device are the case's).
  auto sized = [](std::function<std::vector<int64_t>(const BuildContext&, int64_t)> ints) {
    return [ints](const BuildContext& c, Args& a) {
      int64_t n = 1;
      for (int64_t d : c.dims()) n *= d;
      a.i = ints(c, n);
    };
  };
  using Ints = std::vector<int64_t>;
  add(generic(kConstruct, sized([](const BuildContext&, int64_t n) {
                return Ints{0, n};
              })),
      {{"arange_start", "arange.start"}});
  add(generic(kConstruct, sized([](const BuildContext&, int64_t n) {
                return Ints{0, n, 1};
              })),
      {{"arange_start_step", "arange.start_step"}});
  add(generic(kConstruct, sized([](const BuildContext&, int64_t n) { return Ints{n}; })),
      {
          {"blackman_window", "blackman_window.periodic", kBase, {{"periodic", true}}},
          {"blackman_window_periodic", "blackman_window.periodic", kBase, {{"periodic", true}}},
      });
  // logspace(0, end, numel, base 1.05): end = int(log2(finfo.max - 1) / log2(1.05)), as
  // FlagGems computes it, so the last value stays finite in the dtype.
  add(generic(kConstruct, sized([](const BuildContext& c, int64_t n) {
                const double max = c.dtype == DType::kFloat16    ? 65504.0
                                   : c.dtype == DType::kBFloat16 ? 3.3895313892515355e38
                                                                 : 3.4028234663852886e38;
                return Ints{0, static_cast<int64_t>(std::log2(max - 1) / std::log2(1.05)), n};
              })),
      {{"logspace", "logspace", kBase, {{"base", 1.05}}}});
  add(generic(kConstruct,
              [](const BuildContext& c, Args& a) {
                a.t = {ops::random(c, c.dims())};
                a.lists = {c.dims()};
              }),
      {{"new_ones", "new_ones"}});
  // range(0, end) of the case's dtype (FlagGems' RangeBenchmark: end 4096, 2^24, 2^30).
  add(
      [](const std::string& name) {
        return generic(kConstruct,
                       [](const BuildContext& c, Args& a) {
                         a.i = {0, c.dims()[0]};
                       },
                       {DType::kFloat16, DType::kFloat32})(name)
            .shape_keys({"RangeBenchmark"})
            .more_shapes({});
      },
      {{"range", "range"}});
  // FlagGems times torch.zeros(1) as make_dep_token's baseline: ATen's _make_dep_token has a CPU
  // kernel only.
  out.push_back(generic(kConstruct, [](const BuildContext&, Args&) {})("make_dep_token")
                    .call([](Args& a) { return at::zeros({1}, a.options); })
                    .aten({"aten::zeros"}));
  // scalar_tensor(0.01) of the case's dtype: FlagGems' input_fn ignores the shape.
  add(generic(kConstruct, [](const BuildContext&, Args& a) { a.f = {0.01}; }),
      {{"scalar_tensor", "scalar_tensor"}});
  auto no_1d = [](ops::Prototype proto) -> ops::Prototype {
    return [proto](const std::string& name) {
      return proto(name)
          .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
          .more_shapes(ops::generic_more_shapes_no_1d());
    };
  };
  add(random_draw(no_1d(generic(Family::kRng, random_then({0.5})))),
      {
          {"alpha_dropout", "alpha_dropout", kBase, {{"train", true}}},
          {"feature_dropout", "feature_dropout", kBaseInplace, {{"train", true}}},
      });
  auto only_2d = [](ops::Prototype proto) -> ops::Prototype {
    return [proto](const std::string& name) {
      return proto(name)
          .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
          .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
          .more_shapes(ops::generic_more_shapes_2d());
    };
  };
  // poisson rates must be non-negative (FlagGems draws torch.rand).
  add(random_draw(only_2d(generic(Family::kRng, random_then({}, ops::Domain::kPositive)))),
      {{"poisson", "poisson"}});
  return out;
}

}  // namespace caliber
