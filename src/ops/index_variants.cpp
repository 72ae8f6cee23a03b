// Selection, masking and index ops by their ATen overloads, one row each, with FlagGems'
// input_fn tensors (where's `inp1 > 0` condition, masked_fill's `< 0.3` mask and value 1024,
// take's numel indices).
#include <ATen/TensorOperators.h>
#include <ATen/ops/_cummin_helper.h>
#include <ATen/ops/_embedding_bag.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/nonzero_static.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/zeros.h>

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
  auto add = ops::appender(out);
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
  // _masked_scale(x, uint8 mask in {0, 1}, 2.0) on Benchmark's shapes and FlagGems' extra ones,
  // float32 (ops/dismiss.yaml: a CUDA kernel only).
  add(
      [](const std::string& name) {
        return generic(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, d), at::randint(0, 2, d, c.options().dtype(at::kByte))};
                     a.f = {2.0};
                   },
                   {DType::kFloat32})(name)
            .shape_keys({"MaskedScaleBenchmark", "Benchmark"})
            .more_shapes({{1024, 1},
                          {1024, 16},
                          {1024, 256},
                          {1024, 4096},
                          {1024, 65536},
                          {64, 64, 1},
                          {64, 64, 16},
                          {64, 64, 256},
                          {64, 64, 4096},
                          {64, 64, 65536}});
      },
      {{"masked_scale", "_masked_scale"}});
  // _cummin_helper(x, values, indices, dim) writes the running minimum into values and indices
  // (it returns nothing): dim 1 (0 for 1-D), GenericBenchmark2DOnly; the call gives values.
  out.push_back(generic(
                    [](const BuildContext& c, Args& a) {
                      auto d = c.dims();
                      at::Tensor x = ops::random(c, d);
                      a.t = {x, at::empty_like(x), at::empty(d, c.options().dtype(at::kLong))};
                      a.i = {d.size() >= 2 ? 1 : 0};
                    },
                    ops::float_and_int())("cummin_helper")
                    .shape_key("GenericBenchmark2DOnly")
                    .more_shapes(ops::generic_more_shapes_2d())
                    .call([](Args& a) {
                      at::_cummin_helper(a.t[0], a.t[1], a.t[2], a.i[0]);
                      return a.t[1];
                    })
                    .aten({"aten::_cummin_helper"}));
  // nonzero_static(x, size, fill_value -1): FlagGems' cases (shape, nnz ratio, size, -1), x
  // zero but 1 where U(0, 1) < ratio.
  out.push_back(OpDef("nonzero_static")
                    .family(Family::kIndex)
                    .shape_key("NonzeroStaticBenchmark")
                    .shape_desc("shape, nnz_ratio, size, fill_value")
                    .dtypes({DType::kFloat16, DType::kBFloat16})
                    .inputs([](const BuildContext& c, Args& a) {
                      const auto& items = c.shape_case.shape.items;
                      std::vector<int64_t> d;
                      for (const auto& v : items.at(0).items) d.push_back(v.integer);
                      const auto& ratio = items.at(1);
                      const double p = ratio.kind == ShapeValue::Kind::kFloat
                                           ? ratio.real
                                           : static_cast<double>(ratio.integer);
                      at::Tensor mask = at::rand(d, c.options().dtype(at::kFloat)).lt(p);
                      a.t = {at::zeros(d, c.options()).masked_fill_(mask, 1.0)};
                      a.i = {items.at(2).integer, items.at(3).integer};
                    })
                    .call([](Args& a) { return at::nonzero_static(a.t[0], a.i[0], a.i[1]); })
                    .aten({"aten::nonzero_static"}));
  // _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
  // num_weights, False, mode sum, None, -1) of _embedding_bag's sum forward: FlagGems'
  // (bags, embedding dim, weights, samples per bag).
  add(
      [](const std::string& name) {
        return generic([](const BuildContext& c, Args& a) {
                 auto d = c.dims();
                 const int64_t bags = d[0], dim = d[1], weights = d[2], per_bag = d[3];
                 at::Tensor table = ops::random(c, {weights, dim});
                 at::Tensor indices = ops::indices(c, {bags * per_bag}, weights);
                 at::Tensor offsets =
                     at::arange(0, bags * per_bag, per_bag, c.options().dtype(at::kLong));
                 auto [output, offset2bag, bag_size, maximum] =
                     at::_embedding_bag(table, indices, offsets);
                 // The CPU forward leaves offset2bag empty in sum mode (CUDA fills it): each
                 // sample's bag, as CUDA writes it.
                 if (offset2bag.numel() == 0) {
                   offset2bag = at::arange(bags * per_bag, c.options().dtype(at::kLong))
                                    .div(per_bag, "floor");
                 }
                 a.t = {ops::random(c, output.sizes()), indices, offset2bag, bag_size, maximum};
                 a.i = {weights, 0, -1};
               })(name)
            .shape_key("EmbeddingBagDenseBackwardBenchmark")
            .shape_desc("num_bags, embedding_dim, num_weights, samples_per_bag")
            .tolerance(4);
      },
      {{"embedding_bag_dense_backward",
        "_embedding_bag_dense_backward",
        kBase,
        {{"scale_grad_by_freq", false}}}});
  // _embedding_bag_per_sample_weights_backward(grad [bags, dim], weight [64, dim], indices,
  // offsets, offset2bag, mode sum, -1): FlagGems' (batch, bags, bag size, dim), float32.
  add(
      [](const std::string& name) {
        return generic(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     const int64_t bags = d[1], bag_size = d[2], dim = d[3];
                     const int64_t samples = d[0] * bag_size;
                     auto longs = c.options().dtype(at::kLong);
                     a.t = {ops::random(c, {bags, dim}), ops::random(c, {64, dim}),
                            ops::indices(c, {samples}, 64),
                            at::arange(0, (bags + 1) * bag_size, bag_size, longs),
                            at::arange(samples, longs).div(bag_size, "floor")};
                     a.i = {0, -1};
                   },
                   {DType::kFloat32})(name)
            .shape_key("EmbeddingBagPerSampleWeightsBackwardBenchmark")
            .shape_desc("batch, num_bags, bag_size, embedding_dim");
      },
      {{"embedding_bag_per_sample_weights_backward",
        "_embedding_bag_per_sample_weights_backward"}});
  return out;
}

}  // namespace caliber
