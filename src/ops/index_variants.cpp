// Selection, masking and index ops by their ATen overloads, one row each, with FlagGems'
// input_fn tensors (where's `inp1 > 0` condition, masked_fill's `< 0.3` mask and value 1024,
// take's numel indices).
#include <ATen/TensorOperators.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randperm.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kBaseInplace;
using ops::kOut;

ops::Prototype generic(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(Family::kIndex)
        .shape_key("GenericBenchmark")
        .more_shapes(ops::generic_more_shapes())
        .dtypes(dtypes)
        .inputs(inputs)
        .flops(ops::output_numel);
  };
}

int64_t numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

std::vector<OpDef> index_variant_ops() {
  std::vector<OpDef> out;
  auto add = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(std::move(op));
  };
  add(generic([](const BuildContext& c, Args& a) {
        at::Tensor x = ops::random(c, c.dims());
        a.t = {x > 0, x, ops::random(c, c.dims())};
      }),
      {{"where_self", "where.self", kBase | kOut}});
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims()), ops::random(c, c.dims()) < 0.3};
        a.i = {1024};
      }),
      {{"masked_fill_scalar", "masked_fill.Scalar", kBaseInplace}});
  add(generic([](const BuildContext& c, Args& a) {
        int64_t n = numel(c.dims());
        a.t = {ops::random(c, c.dims()), ops::indices(c, {n}, n)};
      }),
      {{"take", "take", kOut}});
  // select_backward: the gradient of x.select(0, M / 2) (FlagGems' first dim of three).
  add(generic([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        std::vector<int64_t> grad(d.begin() + 1, d.end());
        a.t = {ops::random(c, grad)};
        a.lists = {d};
        a.i = {0, d[0] / 2};
      }),
      {{"select_backward", "select_backward"}});
  // slice_backward: the gradient of x[:, ::2] along dim 1 (dim 0 for 1-D shapes).
  add(generic([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        const int64_t dim = d.size() == 1 ? 0 : 1;
        auto grad = d;
        grad[dim] = (d[dim] + 1) / 2;
        a.t = {ops::random(c, grad)};
        a.lists = {d};
        a.i = {dim, 0, d[dim], 2};
      }),
      {{"slice_backward", "slice_backward"}});
  // index_copy_ of a source of M / 2 rows along dim 1 (dim 0 for 1-D), indices a permutation.
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 const int64_t dim = d.size() == 1 ? 0 : 1;
                 const int64_t len = d[dim] >= 2 ? d[dim] / 2 : 1;
                 auto src = d;
                 src[dim] = len;
                 a.t = {ops::random(c, d), at::randperm(len, c.options().dtype(at::kLong)),
                        ops::random(c, src)};
                 a.i = {dim};
               })(name)
            .more_shapes({{1, 2}, {4096, 256}, {200, 40999, 3}});
      },
      {{"index_copy", "index_copy", ops::kInplace}});
  // masked_scatter_(x, x' < 0.3, src) on TensorSelectBenchmark's (M, N).
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 a.t = {ops::random(c, c.dims()), ops::random(c, c.dims()) < 0.3,
                        ops::random(c, c.dims())};
               })(name)
            .shape_keys({"TensorSelectBenchmark", "GenericBenchmark2DOnly", "GenericBenchmark"});
      },
      {{"masked_scatter", "masked_scatter", ops::kInplace}});
  // scatter along the last dim on TensorSelectBenchmark's (M, N): out-of-place, index of
  // 2N columns into N and a source 16 wider each way; in place, index and source of the shape.
  auto select_shapes = [](BuildFn inputs, std::vector<DType> dtypes) -> ops::Prototype {
    return [=](const std::string& name) {
      return generic(inputs, dtypes)(name).shape_keys(
          {"TensorSelectBenchmark", "GenericBenchmark2DOnly", "GenericBenchmark"});
    };
  };
  auto scatter_wide = [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    auto wide = d;
    wide.back() *= 2;
    auto src = wide;
    for (auto& x : src) x += 16;
    a.t = {ops::random(c, d), ops::indices(c, wide, d.back()), ops::random(c, src)};
    a.i = {-1};
  };
  auto scatter_same = [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, d), ops::indices(c, d, d.back()), ops::random(c, d)};
    a.i = {-1};
  };
  const std::vector<DType> kHalfAndFloat = {DType::kFloat16, DType::kFloat32};
  add(select_shapes(scatter_wide, kFloatDTypes), {{"scatter_src", "scatter.src"}});
  add(select_shapes(scatter_wide, kHalfAndFloat),
      {{"scatter_reduce", "scatter.reduce", kBase, {{"reduce", "add"}}}});
  add(select_shapes(scatter_same, kFloatDTypes),
      {
          {"scatter_src", "scatter.src", ops::kInplace},
          {"scatter_reduce_two", "scatter_reduce.two", kBaseInplace, {{"reduce", "sum"}}},
      });
  add(select_shapes(scatter_same, kHalfAndFloat),
      {{"scatter_reduce", "scatter.reduce", ops::kInplace, {{"reduce", "add"}}}});
  // index_reduce_(x, dim, index, source, "prod"): dim 1 (0 for 1-D), half the positions of a
  // permutation, a source of ones (FlagGems' first reduce of four).
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 const int64_t dim = d.size() == 1 ? 0 : 1;
                 auto src = d;
                 src[dim] = std::max<int64_t>(1, d[dim] / 2);
                 a.t = {ops::random(c, d),
                        at::randperm(d[dim], c.options().dtype(at::kLong)).slice(0, 0, src[dim]),
                        at::ones(src, c.options())};
                 a.i = {dim};
               })(name)
            .shape_keys({"IndexReduceBenchmark"})
            .more_shapes({{2048, 2048}, {128, 1024, 512}});
      },
      {{"index_reduce", "index_reduce", ops::kInplace, {{"reduce", "prod"}}}});
  // index_select_backward(grad, self sizes, dim 0, index): self 8 rows longer than the
  // gradient, index of the gradient's length (FlagGems draws the dim at random; 0 stands for it).
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 auto sizes = d;
                 sizes[0] += 8;
                 a.t = {ops::random(c, d), ops::indices(c, {d[0]}, sizes[0])};
                 a.lists = {sizes};
                 a.i = {0};
               })(name)
            .shape_keys({"index_select_backward"})
            .shape_desc("N, M")
            .more_shapes({});
      },
      {{"index_select_backward", "index_select_backward"}});
  // value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim False): FlagGems'
  // cases as (sizes..., dim), the gradient of sizes without dim.
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 const int64_t dim = d.back();
                 d.pop_back();
                 auto grad = d;
                 grad.erase(grad.begin() + dim);
                 a.t = {ops::random(c, grad), ops::indices(c, grad, d[dim])};
                 a.i = {dim};
                 a.lists = {d};
               })(name)
            .shape_keys({"ValueSelectingReductionBackwardBenchmark"})
            .shape_desc("sizes, dim")
            .more_shapes({});
      },
      {{"value_selecting_reduction_backward",
        "value_selecting_reduction_backward",
        kBase,
        {{"keepdim", false}}}});
  // cummaxmin_backward(grad, x, cummax(x, 1) indices, 1), GenericBenchmark2DOnly.
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 at::Tensor x = ops::random(c, c.dims());
                 a.t = {ops::random(c, c.dims()), x, std::get<1>(x.cummax(1))};
                 a.i = {1};
               })(name)
            .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
            .more_shapes(ops::generic_more_shapes_2d());
      },
      {{"cummaxmin_backward", "cummaxmin_backward"}});
  // native_dropout_backward(grad, keep mask, scale 1 / (1 - 0.5)), GenericBenchmark.
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims()), at::randint(0, 2, c.dims(), c.options().dtype(at::kBool))};
        a.f = {2.0};
      }),
      {{"native_dropout_backward", "native_dropout_backward"}});
  // masked_scatter_backward(grad, x' < 0.3, sizes) on FlagGems' (M, N) list: it gathers the
  // masked elements, whose count waits for the device.
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 a.t = {ops::random(c, c.dims()), ops::random(c, c.dims()) < 0.3};
                 a.lists = {c.dims()};
               })(name)
            .shape_keys({"TensorSelectBackwardBenchmark"})
            .more_shapes({{17, 17},
                          {32, 128},
                          {128, 64},
                          {256, 64},
                          {256, 256},
                          {1024, 1024},
                          {1024, 2048},
                          {1024, 65536},
                          {10000, 65536}})
            .host_sync();
      },
      {{"masked_scatter_backward", "masked_scatter_backward"}});
  // embedding_dense_backward(grad [B, M, D], indices [B, M], num_weights, padding_idx -1,
  // scale_grad_by_freq False): FlagGems' (B, M, D, num_weights), its first of three cases.
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 a.t = {ops::random(c, {d[0], d[1], d[2]}), ops::indices(c, {d[0], d[1]}, d[3])};
                 a.i = {d[3], -1};
               })(name)
            .shape_keys({"EmbeddingDenseBackwardBenchmark"})
            .shape_desc("B, M, D, num_weights")
            .more_shapes({})
            .tolerance(4);
      },
      {{"embedding_dense_backward",
        "embedding_dense_backward",
        kBase,
        {{"scale_grad_by_freq", false}}}});
  return out;
}

}  // namespace caliber
