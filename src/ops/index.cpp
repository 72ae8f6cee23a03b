// Indexing, scatter/gather, masks and embeddings: FlagGems' TensorSelectBenchmark rows (M, N),
// indices drawn in range along dim 0 or the last dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_index_put_impl.h>
#include <ATen/ops/_unsafe_masked_index.h>
#include <ATen/ops/_unsafe_masked_index_put_accumulate.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/index.h>
#include <ATen/ops/index_add.h>
#include <ATen/ops/index_copy.h>
#include <ATen/ops/index_fill.h>
#include <ATen/ops/index_put.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/masked_fill.h>
#include <ATen/ops/masked_scatter.h>
#include <ATen/ops/masked_select.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/one_hot.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/scatter.h>
#include <ATen/ops/scatter_add.h>
#include <ATen/ops/scatter_reduce.h>
#include <ATen/ops/select_scatter.h>
#include <ATen/ops/slice_scatter.h>
#include <ATen/ops/take.h>
#include <ATen/ops/where.h>
#include <fmt/format.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

std::pair<int64_t, int64_t> rows_cols(const BuildContext& c) {
  auto d = c.dims();
  int64_t cols = d.back();
  int64_t rows = 1;
  for (size_t k = 0; k + 1 < d.size(); ++k) rows *= d[k];
  return {rows, cols};
}

// x [M, N], index[M / 2] along dim 0 (index_add, index_copy, index_fill).
void row_index_inputs(const BuildContext& c, Args& a) {
  auto [m, n] = rows_cols(c);
  int64_t picked = std::max<int64_t>(m / 2, 1);
  a.t = {ops::random(c, {m, n}), ops::indices(c, {picked}, m), ops::random(c, {picked, n})};
}

// FlagGems' test_index_select.py: x [M, N], dim 0, and floor(0.1 * M) random row indices (it
// prints the dim between the two tensors).
void index_select_inputs(const BuildContext& c, Args& a) {
  auto [m, n] = rows_cols(c);
  a.t = {ops::random(c, {m, n}), ops::indices(c, {m / 10}, m)};
  a.i = {0};
}

SizeDetail tensor_dim_index_detail(const Args& a) {
  return SizeDetail{}.arg(size_of(a.t[0])).arg(PyValue::of(a.i[0])).arg(size_of(a.t[1]));
}

// x [M, N], index [M, N/2] along dim 1 with a source of the index's shape (gather, scatter).
void column_index_inputs(const BuildContext& c, Args& a) {
  auto [m, n] = rows_cols(c);
  int64_t picked = std::max<int64_t>(n / 2, 1);
  a.t = {ops::random(c, {m, n}), ops::indices(c, {m, picked}, n), ops::random(c, {m, picked})};
}

// x, a half-true mask of the same shape, and a source (masked ops, where).
void mask_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random_as(c, d, at::kBool), ops::random(c, d)};
}

// Unique row indices, so that index_put and index_copy do not race on duplicates.
void unique_row_inputs(const BuildContext& c, Args& a) {
  auto [m, n] = rows_cols(c);
  int64_t picked = std::max<int64_t>(m / 2, 1);
  at::Tensor rows =
      ops::random_as(c, {m}, at::kFloat).argsort(int64_t{0}, false).slice(0, 0, picked);
  a.t = {ops::random(c, {m, n}), rows, ops::random(c, {picked, n})};
}

// Embedding: indices of the case's shape into a [4096, 128] table (EmbeddingBenchmark).
void embedding_inputs(const BuildContext& c, Args& a) {
  a.t = {ops::random(c, {4096, 128}), ops::indices(c, c.dims(), 4096)};
}

OpDef select(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kIndex)
      .shape_key("TensorSelectBenchmark")
      .shape_desc("M, N")
      .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
      .inputs(std::move(inputs))
      .call(std::move(call));
}

OpDef generic(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kIndex)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs(std::move(inputs))
      .call(std::move(call));
}

constexpr int64_t kOneHotClasses = 16;

// FlagGems' benchmark/test_one_hot.py skips a shape when numel * num_classes > 100_000_000: the
// int64 output at [1073741824] or [1024, 1024, 1024] is 128 GiB (CUDA out of memory on an H200).
std::string one_hot_beyond_flaggems(const Shape& shape) {
  if (!shape.is_flat()) return "";  // the builder reports a nested shape
  double elements = kOneHotClasses;
  for (int64_t d : shape.dims("one_hot")) elements *= static_cast<double>(d);
  if (elements <= 1e8) return "";
  return fmt::format(
      "one_hot output of {:.0f} elements (FlagGems' test_one_hot.py skips numel * num_classes > "
      "1e8)",
      elements);
}

}  // namespace

std::vector<OpDef> index_ops() {
  using A = Args;
  std::vector<OpDef> ops = {
      select("index_select", index_select_inputs,
             [](A& a) { return at::index_select(a.t[0], a.i[0], a.t[1]); })
          .detail(tensor_dim_index_detail),
      select("index_add", row_index_inputs,
             [](A& a) { return at::index_add(a.t[0], 0, a.t[1], a.t[2]); })
          .tolerance(4),
      select("index_add_", row_index_inputs,
             [](A& a) { return a.t[0].index_add_(0, a.t[1], a.t[2]); })
          .inplace()
          .tolerance(4),
      select("index_copy", unique_row_inputs,
             [](A& a) { return at::index_copy(a.t[0], 0, a.t[1], a.t[2]); }),
      select("index_fill", row_index_inputs,
             [](A& a) { return at::index_fill(a.t[0], 0, a.t[1], 2.0); })
          .aten({"aten::index_fill.int_Scalar"}),
      select("index_fill_", row_index_inputs,
             [](A& a) { return a.t[0].index_fill_(0, a.t[1], 2.0); })
          .inplace()
          .aten({"aten::index_fill_.int_Scalar"}),
      select("gather", column_index_inputs, [](A& a) { return at::gather(a.t[0], 1, a.t[1]); })
          .dtypes(ops::float_and_int()),
      select("gather_backward", column_index_inputs,
             [](A& a) { return at::gather(a.t[0], 1, a.t[1]); })
          .backward()
          .aten({"aten::scatter_add", "aten::gather_backward"}),
      select("scatter", column_index_inputs,
             [](A& a) { return at::scatter(a.t[0], 1, a.t[1], a.t[2]); })
          .aten({"aten::scatter.src"})
          .check([](const Args&, const at::Tensor& out) -> std::string {
            // duplicate indices make the winner unspecified: check shape and finiteness only
            return out.isfinite().all().item<bool>() ? "" : "non-finite values";
          }),
      select("scatter_", column_index_inputs,
             [](A& a) { return a.t[0].scatter_(1, a.t[1], a.t[2]); })
          .inplace()
          .aten({"aten::scatter_.src"})
          .check([](const Args&, const at::Tensor& out) -> std::string {
            return out.isfinite().all().item<bool>() ? "" : "non-finite values";
          }),
      select("scatter_add", column_index_inputs,
             [](A& a) { return at::scatter_add(a.t[0], 1, a.t[1], a.t[2]); })
          .tolerance(4),
      select("scatter_add_", column_index_inputs,
             [](A& a) { return a.t[0].scatter_add_(1, a.t[1], a.t[2]); })
          .inplace()
          .tolerance(4),
      select("scatter_reduce_sum", column_index_inputs,
             [](A& a) { return at::scatter_reduce(a.t[0], 1, a.t[1], a.t[2], "sum"); })
          .aten({"aten::scatter_reduce.two"})
          .tolerance(4),
      select("scatter_reduce_amax", column_index_inputs,
             [](A& a) { return at::scatter_reduce(a.t[0], 1, a.t[1], a.t[2], "amax"); })
          .aten({"aten::scatter_reduce.two"}),
      select("index_put", unique_row_inputs,
             [](A& a) { return at::index_put(a.t[0], {a.t[1]}, a.t[2], /*accumulate=*/false); })
          .shape_key("IndexPutAccFalseBenchmark"),
      select("index_put_acc", row_index_inputs,
             [](A& a) { return at::index_put(a.t[0], {a.t[1]}, a.t[2], /*accumulate=*/true); })
          .aten({"aten::index_put", "aten::_index_put_impl_"})
          .tolerance(4),
      select("index_put_", unique_row_inputs,
             [](A& a) { return a.t[0].index_put_({a.t[1]}, a.t[2]); })
          .inplace(),
      select("index", row_index_inputs, [](A& a) { return at::index(a.t[0], {a.t[1]}); })
          .aten({"aten::index.Tensor"}),
      select("masked_select", mask_inputs, [](A& a) { return at::masked_select(a.t[0], a.t[1]); })
          .host_sync()
          .dtypes(ops::float_and_int()),
      select("masked_scatter", mask_inputs,
             [](A& a) { return at::masked_scatter(a.t[0], a.t[1], a.t[2]); }),
      select(
          "select_scatter",
          [](const BuildContext& c, Args& a) {
            auto [m, n] = rows_cols(c);
            a.t = {ops::random(c, {m, n}), ops::random(c, {n})};
          },
          [](A& a) { return at::select_scatter(a.t[0], a.t[1], 0, 0); }),
      select(
          "slice_scatter",
          [](const BuildContext& c, Args& a) {
            auto [m, n] = rows_cols(c);
            a.t = {ops::random(c, {m, n}), ops::random(c, {m, (n + 1) / 2})};
          },
          [](A& a) { return at::slice_scatter(a.t[0], a.t[1], 1, 0, std::nullopt, 2); }),
      generic("masked_fill", mask_inputs, [](A& a) { return at::masked_fill(a.t[0], a.t[1], 0.5); })
          .aten({"aten::masked_fill.Scalar"}),
      generic("masked_fill_", mask_inputs, [](A& a) { return a.t[0].masked_fill_(a.t[1], 0.5); })
          .inplace()
          .aten({"aten::masked_fill_.Scalar"}),
      generic("where", mask_inputs, [](A& a) { return at::where(a.t[1], a.t[0], a.t[2]); })
          .aten({"aten::where.self"})
          .dtypes(ops::float_and_int()),
      generic(
          "nonzero",
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random_as(c, c.dims(), at::kBool).to(c.scalar_type())};
          },
          [](A& a) { return at::nonzero(a.t[0]); })
          .shape_key("GenericBenchmark2DOnly")
          .more_shapes(ops::generic_more_shapes_2d())
          .host_sync()
          .dtypes(ops::concat(ops::float_and_int(), kBoolDTypes)),
      generic(
          "take",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            int64_t n = 1;
            for (int64_t x : d) n *= x;
            a.t = {ops::random(c, d), ops::indices(c, {std::max<int64_t>(n / 2, 1)}, n)};
          },
          [](A& a) { return at::take(a.t[0], a.t[1]); }),
      generic(
          "one_hot",
          [](const BuildContext& c, Args& a) { a.t = {ops::indices(c, c.dims(), kOneHotClasses)}; },
          [](A& a) { return at::one_hot(a.t[0], kOneHotClasses); })
          .dtypes({DType::kInt64})
          .skip_shapes(one_hot_beyond_flaggems),
      OpDef("embedding")
          .family(Family::kIndex)
          .shape_key("EmbeddingBenchmark")
          .shape_desc("B, M")
          .builtin_shapes({{4, 4}, {16, 16}, {128, 128}, {256, 256}, {1024, 1024}})
          .inputs(embedding_inputs)
          .call([](A& a) { return at::embedding(a.t[0], a.t[1]); }),
      OpDef("embedding_backward")
          .family(Family::kIndex)
          .shape_key("EmbeddingBenchmark")
          .shape_desc("B, M")
          .builtin_shapes({{4, 4}, {16, 16}, {128, 128}, {256, 256}, {1024, 1024}})
          .inputs(embedding_inputs)
          .call([](A& a) { return at::embedding(a.t[0], a.t[1]); })
          .backward()
          .tolerance(4)
          .aten({"aten::embedding_dense_backward"}),
      // _index_put_impl_(x, [unique rows], values, accumulate False, unsafe False), in place,
      // as FlagGems' accumulate-False benchmark calls it (index_put's rows and shapes).
      select("index_put_impl", unique_row_inputs,
             [](A& a) { return at::_index_put_impl_(a.t[0], {a.t[1]}, a.t[2], false, false); })
          .shape_key("IndexPutAccFalseBenchmark")
          .inplace()
          .aten({"aten::_index_put_impl_"}),
      // _unsafe_masked_index(x [n], mask (U(0, 1) > 0.3), [indices in [0, n)], 0.0).
      OpDef("unsafe_masked_index")
          .family(Family::kIndex)
          .shape_key("UnsafeMaskedIndexBenchmark")
          .shape_desc("N")
          .inputs([](const BuildContext& c, Args& a) {
            auto d = c.dims();
            at::Tensor mask = at::rand(d, c.options().dtype(at::kFloat)).gt(0.3);
            a.t = {ops::random(c, d), mask, ops::indices(c, d, d[0])};
          })
          .call([](A& a) { return at::_unsafe_masked_index(a.t[0], a.t[1], {a.t[2]}, 0.0); })
          .aten({"aten::_unsafe_masked_index"}),
      // _unsafe_masked_index_put_accumulate(x, int32 mask in {0, 1}, per-dim indices of flat
      // positions drawn in [0, numel), values): FlagGems' cases have one shape for all four.
      OpDef("unsafe_masked_index_put_accumulate")
          .family(Family::kIndex)
          .shape_key("UnsafeMaskedIndexPutAccumulateBenchmark")
          .shape_desc("shape of input, mask, indices and values")
          .dtypes({DType::kFloat16, DType::kFloat32})
          .inputs([](const BuildContext& c, Args& a) {
            auto d = c.dims();
            int64_t numel = 1;
            for (int64_t x : d) numel *= x;
            at::Tensor flat = ops::indices(c, d, numel);
            a.t = {ops::random(c, d), at::randint(0, 2, d, c.options().dtype(at::kInt))};
            int64_t stride = numel;
            for (int64_t size : d) {
              stride /= size;
              a.t.push_back(flat.div(stride, "floor").remainder(size));
            }
            a.t.push_back(ops::random(c, d));
          })
          .call([](A& a) {
            c10::List<std::optional<at::Tensor>> indices;
            for (size_t k = 2; k + 1 < a.t.size(); ++k) indices.push_back(a.t[k]);
            return at::_unsafe_masked_index_put_accumulate(a.t[0], a.t[1], indices, a.t.back());
          })
          .tolerance(4)
          .aten({"aten::_unsafe_masked_index_put_accumulate"}),
  };
  return ops;
}

}  // namespace caliber
