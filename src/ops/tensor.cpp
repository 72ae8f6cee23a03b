// Copy, concatenation and shape ops that move data (views are free and not benchmarked).
#include <ATen/core/Tensor.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/diag.h>
#include <ATen/ops/diag_embed.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/flip.h>
#include <ATen/ops/hstack.h>
#include <ATen/ops/permute_copy.h>
#include <ATen/ops/pixel_shuffle.h>
#include <ATen/ops/reflection_pad2d.h>
#include <ATen/ops/repeat_interleave.h>
#include <ATen/ops/roll.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/tril.h>
#include <ATen/ops/triu.h>
#include <ATen/ops/vstack.h>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

// pixel_shuffle's (N, C, H, W, r): an input of C * r^2 channels; with `out`, an out= tensor of
// the result's shape (N, C, H * r, W * r).
BuildFn pixel_shuffle_inputs(bool out) {
  return [out](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, {d[0], d[1] * d[4] * d[4], d[2], d[3]})};
    if (out) a.t.push_back(at::empty({d[0], d[1], d[2] * d[4], d[3] * d[4]}, c.options()));
    a.i = {d[4]};
  };
}

OpDef data_move(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kTensor)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs(std::move(inputs))
      .call(std::move(call))
      .dtypes(ops::concat(kFloatDTypes, kIntDTypes));
}

// FlagGems' ConcatBenchmark: three tensors of the shape.
OpDef concat(const char* name, CallFn call) {
  return data_move(name, ops::tensors(3), std::move(call))
      .shape_key("ConcatBenchmark")
      .shape_desc("((B), M, N) * 3")
      .builtin_shapes({{64, 64}, {256, 256}, {512, 512}, {512, 1024}, {512, 2048}});
}

OpDef matrix(const char* name, CallFn call) {
  return data_move(name, ops::tensors(1), std::move(call))
      .shape_key("GenericBenchmarkExcluse1D")
      .more_shapes(ops::generic_more_shapes_no_1d());
}

std::vector<int64_t> all_dims(const at::Tensor& t) {
  std::vector<int64_t> d(t.dim());
  for (int64_t k = 0; k < t.dim(); ++k) d[k] = k;
  return d;
}

std::vector<int64_t> reversed_dims(const at::Tensor& t) {
  auto d = all_dims(t);
  std::reverse(d.begin(), d.end());
  return d;
}

}  // namespace

std::vector<OpDef> tensor_ops() {
  using A = Args;
  const BuildFn one = ops::tensors(1);
  std::vector<OpDef> ops = {
      concat("cat",
             [](A& a) {
               return at::cat({a.t[0], a.t[1], a.t[2]}, 0);
             }),
      concat("cat_lastdim",
             [](A& a) {
               return at::cat({a.t[0], a.t[1], a.t[2]}, -1);
             })
          .aten({"aten::cat"}),
      concat("stack",
             [](A& a) {
               return at::stack({a.t[0], a.t[1], a.t[2]}, 0);
             })
          .aten({"aten::stack", "aten::cat"}),
      concat("hstack",
             [](A& a) {
               return at::hstack({a.t[0], a.t[1], a.t[2]});
             })
          .aten({"aten::hstack", "aten::cat"}),
      concat("vstack",
             [](A& a) {
               return at::vstack({a.t[0], a.t[1], a.t[2]});
             })
          .aten({"aten::vstack", "aten::cat"}),
      data_move("repeat", one,
                [](A& a) { return a.t[0].repeat(std::vector<int64_t>(a.t[0].dim(), 2)); })
          .shape_key("TensorRepeatBenchmark"),
      data_move("tile", one,
                [](A& a) { return a.t[0].tile(std::vector<int64_t>(a.t[0].dim(), 2)); })
          .shape_key("TensorRepeatBenchmark")
          .aten({"aten::tile", "aten::repeat"}),
      data_move("flip", one, [](A& a) { return at::flip(a.t[0], all_dims(a.t[0])); }),
      data_move("roll", one, [](A& a) { return at::roll(a.t[0], {7}, {0}); }),
      data_move("constant_pad_nd", one,
                [](A& a) {
                  return at::constant_pad_nd(a.t[0], {1, 2}, 0.5);
                }),
      data_move("contiguous", one, [](A& a) { return a.t[0].transpose(-2, -1).contiguous(); })
          .shape_key("GenericBenchmarkExcluse1D")
          .more_shapes(ops::generic_more_shapes_no_1d())
          .aten({"aten::clone", "aten::copy_"}),
      data_move("permute_copy", one,
                [](A& a) { return at::permute_copy(a.t[0], reversed_dims(a.t[0])); }),
      data_move("clone", one, [](A& a) { return a.t[0].clone(); }),
      data_move("copy_", ops::tensors(2), [](A& a) { return a.t[0].copy_(a.t[1]); }).inplace(),
      data_move("to_copy", one, [](A& a) { return a.t[0].to(at::kFloat, false, /*copy=*/true); })
          .aten({"aten::_to_copy"}),
      data_move("repeat_interleave", one, [](A& a) { return at::repeat_interleave(a.t[0], 2, 0); })
          .aten({"aten::repeat_interleave.self_int", "aten::index_select"}),
      matrix("tril", [](A& a) { return at::tril(a.t[0]); }),
      matrix("triu", [](A& a) { return at::triu(a.t[0]); }),
      matrix("tril_", [](A& a) { return a.t[0].tril_(); }).inplace(),
      matrix("transpose_copy", [](A& a) { return a.t[0].transpose(-1, -2).contiguous(); })
          .aten({"aten::clone", "aten::copy_"}),
      data_move("diag", one, [](A& a) { return at::diag(a.t[0]); })
          .shape_key("GenericBenchmarkExcluse3D")
          .builtin_shapes({{64}, {1024}, {64, 64}, {256, 1024}, {1024, 1024}}),
      data_move("diag_embed", one, [](A& a) { return at::diag_embed(a.t[0]); })
          .shape_key("EmbeddingBenchmark")
          .builtin_shapes({{4, 4}, {16, 16}, {128, 128}, {256, 256}, {1024, 1024}}),
      data_move("pixel_shuffle", pixel_shuffle_inputs(false),
                [](A& a) { return at::pixel_shuffle(a.t[0], a.i[0]); })
          .shape_desc("N, C, H, W, upscale_factor")
          .builtin_shapes({{1, 4, 2, 3, 2}, {2, 9, 4, 4, 3}, {4, 64, 32, 32, 2}}),
      data_move("pixel_shuffle_out", pixel_shuffle_inputs(true),
                [](A& a) { return at::pixel_shuffle_out(a.t[1], a.t[0], a.i[0]); })
          .shape_keys({"pixel_shuffle"})
          .shape_desc("N, C, H, W, upscale_factor")
          .aten({"aten::pixel_shuffle.out"}),
      data_move(
          "reflection_pad2d",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, d)};
          },
          [](A& a) {
            return at::reflection_pad2d(a.t[0], {1, 1, 2, 2});
          })
          .shape_key("UpsampleBenchmark")
          .shape_desc("N, C, H, W")
          .dtypes(kFloatDTypes),
  };
  return ops;
}

}  // namespace caliber
