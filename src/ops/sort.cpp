// Sort, top-k and search: FlagGems' SortBenchmark/TopKBenchmark rows (M, N), along the last dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_unique2.h>
#include <ATen/ops/argsort.h>
#include <ATen/ops/bucketize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/isin.h>
#include <ATen/ops/kthvalue.h>
#include <ATen/ops/linspace.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/topk.h>
#include <ATen/ops/unique_consecutive.h>
#include <ATen/ops/unique_dim.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

OpDef sorting(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kSort)
      .shape_keys({"SortBenchmark", "GenericBenchmark2DOnly", "GenericBenchmark"})
      .shape_desc("M, N")
      .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
      .more_shapes(ops::generic_more_shapes_2d())
      .inputs(std::move(inputs))
      .call(std::move(call));
}

// FlagGems' searchsorted sequences and values: linspace(-4096, 4096) of the last dim (for int8
// [-120, 120], uint8 [0, 255], int16 [-2048, 2048]), rounded for integer dtypes, expanded over
// the leading dims.
at::Tensor ramp(const BuildContext& c, const std::vector<int64_t>& shape) {
  double low = -4096, high = 4096;
  if (c.dtype == DType::kUInt8) low = 0, high = 255;
  if (c.dtype == DType::kInt8) low = -120, high = 120;
  if (c.dtype == DType::kInt16) low = -2048, high = 2048;
  at::Tensor base = at::linspace(low, high, shape.back(), at::dtype(at::kFloat));
  if (!at::isFloatingType(c.scalar_type())) base = base.round();
  std::vector<int64_t> view(shape.size(), 1);
  view.back() = shape.back();
  return base.to(c.scalar_type()).reshape(view).expand(shape).contiguous().to(c.device);
}

// SearchsortedBenchmark's (sequence dims..., values dims..., with sorter, right, out_int32):
// Args::t = sequence, values, out, [sorter]; Args::i = right, out_int32, with sorter.
void searchsorted_out_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const size_t rank = (d.size() - 3) / 2;
  std::vector<int64_t> seq(d.begin(), d.begin() + rank), values(d.begin() + rank, d.end() - 3);
  const int64_t sorter = d[2 * rank], right = d[2 * rank + 1], int32 = d[2 * rank + 2];
  at::Tensor sequence = ramp(c, seq);
  if (sorter) sequence = sequence.flip(-1);
  a.t = {sequence, ramp(c, values),
         at::empty(values, c.options().dtype(int32 ? at::kInt : at::kLong))};
  if (sorter) a.t.push_back(sequence.argsort(/*dim=*/-1, /*descending=*/false));
  a.i = {right, int32, sorter};
}

// SearchsortedScalarBenchmark's (sequence length, right, out_int32), searched for 0; with `out`
// a 0-dim out= tensor.
BuildFn searchsorted_scalar_inputs(bool out) {
  return [out](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ramp(c, {d[0]})};
    if (out) a.t.push_back(at::empty({}, c.options().dtype(d[2] ? at::kInt : at::kLong)));
    a.i = {d[1], d[2]};
  };
}

// x, and a sorted boundary tensor of 1024 values for searches.
void search_inputs(const BuildContext& c, Args& a) {
  a.t = {std::get<0>(ops::random(c, {1024}).sort()), ops::random(c, c.dims())};
}

void isin_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random(c, {std::max<int64_t>(d.back(), 2)})};
}

// FlagGems' test_topk.py: (M, N) with k = 5 (N when N <= 5), (M, N, k), or ((shape), k); always
// along the last dim, and all passed by keyword.
void topk_inputs(const BuildContext& c, Args& a) {
  const Shape& s = c.shape_case.shape;
  std::vector<int64_t> x;
  int64_t k = 0;
  if (s.items.size() == 2 && s.items[0].kind == ShapeValue::Kind::kList) {
    for (const auto& v : s.items[0].items) x.push_back(v.integer);
    k = s.items[1].integer;
  } else {
    auto d = c.dims();
    if (d.size() == 3) {
      x = {d[0], d[1]};
      k = d[2];
    } else {
      x = d;
      k = std::min<int64_t>(d.back(), 5);
    }
  }
  a.t = {ops::random(c, x)};
  a.i = {k, -1};
}

SizeDetail topk_detail(const Args& a) {
  return SizeDetail{}
      .kwarg("x", size_of(a.t[0]))
      .kwarg("k", PyValue::of(a.i[0]))
      .kwarg("dim", PyValue::of(a.i[1]));
}

// test_sort.py / test_argsort.py pass dim and descending (and stable) by keyword.
DetailFn sort_keywords(bool descending, bool stable) {
  return [descending, stable](const Args& a) {
    SizeDetail d;
    d.arg(size_of(a.t[0]))
        .kwarg("dim", PyValue::of(-1))
        .kwarg("descending", PyValue::flag(descending));
    if (stable) d.kwarg("stable", PyValue::flag(true));
    return d;
  };
}

}  // namespace

std::vector<OpDef> sort_ops() {
  using A = Args;
  const BuildFn one = ops::tensors(1);
  std::vector<OpDef> ops = {
      sorting("sort", one, [](A& a) { return std::get<0>(a.t[0].sort(-1)); })
          .detail(sort_keywords(false, false))
          .dtypes(ops::float_and_int()),
      sorting("sort_stable", one,
              [](A& a) { return std::get<0>(a.t[0].sort(/*stable=*/true, -1, false)); })
          .detail(sort_keywords(false, true))
          .aten({"aten::sort.stable"})
          .dtypes(ops::float_and_int()),
      sorting("sort_descending", one, [](A& a) { return std::get<0>(a.t[0].sort(-1, true)); })
          .aten({"aten::sort"}),
      sorting(
          "argsort",
          [](const BuildContext& c, Args& a) {
            // distinct values, so that the order (the output) is unique
            auto d = c.dims();
            int64_t n = 1;
            for (int64_t x : d) n *= x;
            a.t = {ops::random_as(c, {n}, at::kFloat)
                       .argsort(int64_t{-1}, false)
                       .to(c.scalar_type())
                       .reshape(d)};
          },
          [](A& a) { return a.t[0].argsort(int64_t{-1}, false); })
          .detail(sort_keywords(false, false))
          .aten({"aten::sort"})
          .dtypes({DType::kFloat32, DType::kInt32}),
      // TopKBenchmark.set_shapes replaces the shape list (shapes/core.yaml: TopKBenchmark), and
      // so level=comprehensive adds nothing.
      sorting("topk", topk_inputs, [](A& a) { return std::get<0>(a.t[0].topk(a.i[0], a.i[1])); })
          .shape_key("TopKBenchmark")
          .shape_desc("M, N[, k] or ((shape), k)")
          .more_shapes({})
          .detail(topk_detail),
      sorting("kthvalue", one,
              [](A& a) { return std::get<0>(at::kthvalue(a.t[0], (a.t[0].size(-1) + 1) / 2)); })
          .shape_key("KthvalueBenchmark"),
      sorting("searchsorted", search_inputs, [](A& a) { return at::searchsorted(a.t[0], a.t[1]); })
          .aten({"aten::searchsorted.Tensor"}),
      sorting("bucketize", search_inputs, [](A& a) { return at::bucketize(a.t[1], a.t[0]); })
          .aten({"aten::bucketize.Tensor"}),
      sorting("isin", isin_inputs, [](A& a) { return at::isin(a.t[0], a.t[1]); })
          .aten({"aten::isin.Tensor_Tensor"})
          .dtypes(ops::float_and_int()),
      sorting(
          "unique",
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random(c, c.dims(), ops::Domain::kSmallInt)};
          },
          [](A& a) { return std::get<0>(at::_unique2(a.t[0], true, true, true)); })
          .aten({"aten::_unique2"})
          .host_sync()
          .dtypes(ops::float_and_int()),
      sorting(
          "unique_consecutive",
          [](const BuildContext& c, Args& a) {
            a.t = {std::get<0>(ops::random(c, c.dims(), ops::Domain::kSmallInt).flatten().sort())};
          },
          [](A& a) { return std::get<0>(at::unique_consecutive(a.t[0], true, true)); })
          .host_sync()
          .dtypes(ops::float_and_int()),
      sorting("searchsorted_out", searchsorted_out_inputs,
              [](A& a) {
                std::optional<at::Tensor> sorter;
                if (a.i[2]) sorter = a.t[3];
                return at::searchsorted_out(a.t[2], a.t[0], a.t[1], a.i[1] != 0, a.i[0] != 0,
                                            std::nullopt, sorter);
              })
          .shape_keys({"SearchsortedBenchmark"})
          .shape_desc("sequence shape, values shape, sorter, right, out_int32")
          .aten({"aten::searchsorted.Tensor_out"})
          .dtypes(ops::concat(ops::float_and_int(), {DType::kInt8, DType::kUInt8})),
      sorting(
          "searchsorted_scalar", searchsorted_scalar_inputs(false),
          [](A& a) { return at::searchsorted(a.t[0], at::Scalar(0), a.i[1] != 0, a.i[0] != 0); })
          .shape_keys({"SearchsortedScalarBenchmark"})
          .shape_desc("sequence length, right, out_int32")
          .aten({"aten::searchsorted.Scalar"})
          .dtypes(ops::concat(ops::float_and_int(), {DType::kInt8, DType::kUInt8})),
      sorting("searchsorted_scalar_out", searchsorted_scalar_inputs(true),
              [](A& a) {
                return at::searchsorted_out(a.t[1], a.t[0], at::Scalar(0), a.i[1] != 0,
                                            a.i[0] != 0);
              })
          .shape_keys({"SearchsortedScalarBenchmark"})
          .shape_desc("sequence length, right, out_int32")
          .aten({"aten::searchsorted.Scalar_out"})
          .dtypes(ops::concat(ops::float_and_int(), {DType::kInt8, DType::kUInt8})),
      // FlagGems' unique2 and unique_dim marks: torch.unique(x, sorted, return_inverse) of int
      // inputs, GenericBenchmark2DOnly's shapes; unique_dim along dim 0 (its first of two).
      sorting(
          "unique2", [](const BuildContext& c, Args& a) { a.t = {ops::random(c, c.dims())}; },
          [](A& a) { return std::get<0>(at::_unique2(a.t[0], true, true, false)); })
          .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
          .aten({"aten::_unique2"})
          .host_sync()
          .dtypes(kIntDTypes),
      sorting(
          "unique_dim", [](const BuildContext& c, Args& a) { a.t = {ops::random(c, c.dims())}; },
          [](A& a) { return std::get<0>(at::unique_dim(a.t[0], 0, true, true, false)); })
          .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
          .aten({"aten::unique_dim"})
          .host_sync()
          .dtypes(kIntDTypes),
  };
  return ops;
}

}  // namespace caliber
