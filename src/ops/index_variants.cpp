// Selection, masking and index ops by their ATen overloads, one row each, with FlagGems'
// input_fn tensors (where's `inp1 > 0` condition, masked_fill's `< 0.3` mask and value 1024,
// take's numel indices).
#include <ATen/TensorOperators.h>
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
  return out;
}

}  // namespace caliber
