// Pooling by its ATen operators on the shapes FlagGems' pooling benchmarks list in code (keyed
// by their class in shapes/core.yaml), with their common case: kernel 3, stride 2, padding 1.
#include <ATen/ops/adaptive_max_pool2d.h>
#include <ATen/ops/adaptive_max_pool3d.h>
#include <ATen/ops/fractional_max_pool2d.h>
#include <ATen/ops/max_pool2d_with_indices.h>
#include <ATen/ops/max_pool3d_with_indices.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/rand.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::ArgValue;
using ops::kBase;

// float32 first: some CPU pooling kernels lack Half/BFloat16 (ops/dismiss.yaml).
ops::Prototype pool(const char* key, const char* desc, BuildFn inputs) {
  return [=](const std::string& name) {
    return OpDef(name)
        .dtypes({DType::kFloat32, DType::kFloat16, DType::kBFloat16})
        .family(Family::kConv)
        .shape_key(key)
        .shape_desc(desc)
        .inputs(inputs)
        .flops(ops::input_numel)
        .tolerance(2);
  };
}

std::vector<ArgValue> window(int spatial) {
  auto each = [spatial](int64_t v) { return std::vector<int64_t>(spatial, v); };
  return {{"kernel_size", each(3)}, {"stride", each(2)}, {"padding", each(1)}};
}

// The shape's first dims are the input, its last `outputs` numbers the output size.
BuildFn input_and_output_size(size_t outputs) {
  return [outputs](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, std::vector<int64_t>(d.begin(), d.end() - outputs))};
    a.lists = {std::vector<int64_t>(d.end() - outputs, d.end())};
  };
}

}  // namespace

std::vector<OpDef> pooling_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  add(pool("AvgPool1dBenchmark", "N, C, L", ops::tensors(1)),
      {{"avg_pool1d", "avg_pool1d", kBase, window(1)}});
  add(pool("AvgPool3dBenchmark", "N, C, D, H, W", ops::tensors(1)),
      {{"avg_pool3d", "avg_pool3d", kBase, window(3)}});
  add(
      [](const std::string& name) {
        return pool("AvgPool3dBenchmark", "N, C, D, H, W", ops::tensors(1))(name).backward();
      },
      {{"avg_pool3d_backward", "avg_pool3d", kBase, window(3)}});
  out.back().aten({"aten::avg_pool3d_backward"});  // what the timed autograd call dispatches
  add(pool("MaxPool3dBenchmark", "N, C, D, H, W", ops::tensors(1)),
      {{"max_pool3d", "max_pool3d", kBase, window(3)}});
  // max_pool3d is a composite of max_pool3d_with_indices, which FlagGems overrides.
  out.back().aten({"aten::max_pool3d", "aten::max_pool3d_with_indices"});
  add(pool("MaxPool2dBenchmark", "N, C, H, W", ops::tensors(1)),
      {{"max_pool2d_with_indices", "max_pool2d_with_indices", kBase, window(2)}});
  add(pool("AdaptiveAvgPool1dBenchmark", "N, C, L",
           [](const BuildContext& c, Args& a) {
             a.t = {ops::random(c, c.dims())};
             a.lists = {{7}};
           }),
      {{"adaptive_avg_pool1d", "adaptive_avg_pool1d"}});
  add(pool("AdaptiveMaxPool2dBenchmark", "N, C, H, W, OUT_H, OUT_W", input_and_output_size(2)),
      {{"adaptive_max_pool2d", "adaptive_max_pool2d"}});
  // Backward of adaptive pooling to (OUT_H, OUT_W): (grad_output, input[, indices]).
  auto adaptive_backward = [](bool indices) -> BuildFn {
    return [indices](const BuildContext& c, Args& a) {
      auto d = c.dims();
      at::Tensor x = ops::random(c, {d[0], d[1], d[2], d[3]});
      if (indices) {
        auto [values, where] = at::adaptive_max_pool2d(x, {d[4], d[5]});
        a.t = {ops::random(c, values.sizes()), x, where};
      } else {
        a.t = {ops::random(c, {d[0], d[1], d[4], d[5]}), x};
      }
    };
  };
  add(pool("AdaptiveAvgPool2dBackwardBenchmark", "N, C, H, W, OUT_H, OUT_W",
           adaptive_backward(false)),
      {{"adaptive_avg_pool2d_backward", "_adaptive_avg_pool2d_backward"}});
  add(pool("AdaptiveMaxPool2dBackwardBenchmark", "N, C, H, W, OUT_H, OUT_W",
           adaptive_backward(true)),
      {{"adaptive_max_pool2d_backward", "adaptive_max_pool2d_backward"}});
  // _adaptive_avg_pool3d_backward(grad, x): FlagGems' (N, C, D, H, W) zipped with its output
  // sizes, as (N, C, D, H, W, OUT_D, OUT_H, OUT_W).
  add(pool("AdaptiveAvgPool3dBackwardBenchmark", "N, C, D, H, W, OUT_D, OUT_H, OUT_W",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             a.t = {ops::random(c, {d[0], d[1], d[5], d[6], d[7]}),
                    ops::random(c, {d[0], d[1], d[2], d[3], d[4]})};
           }),
      {{"adaptive_avg_pool3d_backward", "_adaptive_avg_pool3d_backward"}});
  // max_unpool2d of max_pool2d(x, 2, stride 2) values and indices back to (H, W).
  add(pool("MaxUnpool2dBenchmark", "N, C, H, W",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             auto [values, where] = at::max_pool2d_with_indices(ops::random(c, d), {2, 2}, {2, 2});
             a.t = {values, where};
             a.lists = {{d[2], d[3]}};
           }),
      {{"max_unpool2d", "max_unpool2d"}});
  // max_unpool3d of max_pool3d(x, 2, stride 2) values and indices back to (D, H, W), stride 2,
  // padding 0 (FlagGems' MaxUnpool3dBenchmark).
  add(pool("MaxUnpool3dBenchmark", "N, C, D, H, W",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             auto [values, where] =
                 at::max_pool3d_with_indices(ops::random(c, d), {2, 2, 2}, {2, 2, 2});
             a.t = {values, where};
             a.lists = {{d[2], d[3], d[4]}, {2, 2, 2}, {0, 0, 0}};
           }),
      {{"max_unpool3d", "max_unpool3d"}});
  // adaptive_max_pool3d_backward(ones, x, indices) of adaptive_max_pool3d(x) to (D, H, W) / 2.
  add(pool("AdaptiveMaxPool3dBackwardBenchmark", "N, C, D, H, W",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             at::Tensor x = ops::random(c, d);
             auto [values, where] = at::adaptive_max_pool3d(x, {d[2] / 2, d[3] / 2, d[4] / 2});
             a.t = {at::ones_like(values), x, where};
           }),
      {{"adaptive_max_pool3d_backward", "adaptive_max_pool3d_backward"}});
  // max_pool{2,3}d_with_indices_backward(grad, x, kernel 3, stride 2, padding 1, dilation 1,
  // ceil_mode False, indices) with the indices of ATen's forward, as FlagGems' baseline uses.
  auto max_pool_backward = [](int spatial) -> BuildFn {
    return [spatial](const BuildContext& c, Args& a) {
      at::Tensor x = ops::random(c, c.dims());
      const std::vector<int64_t> k(spatial, 3), s(spatial, 2), p(spatial, 1);
      auto [values, where] = spatial == 2 ? at::max_pool2d_with_indices(x, k, s, p)
                                          : at::max_pool3d_with_indices(x, k, s, p);
      a.t = {ops::random(c, values.sizes()), x, where};
    };
  };
  auto with_dilation = [](int spatial) {
    std::vector<ArgValue> args = window(spatial);
    args.push_back({"dilation", std::vector<int64_t>(spatial, 1)});
    args.push_back({"ceil_mode", false});
    return args;
  };
  add(pool("MaxPool2dBenchmark", "N, C, H, W", max_pool_backward(2)),
      {{"max_pool2d_with_indices_backward", "max_pool2d_with_indices_backward", kBase,
        with_dilation(2)}});
  add(pool("MaxPool3dBenchmark", "N, C, D, H, W", max_pool_backward(3)),
      {{"max_pool3d_with_indices_backward", "max_pool3d_with_indices_backward", kBase,
        with_dilation(3)}});
  // fractional_max_pool2d(x, kernel 2, (H / 2, W / 2), samples): F.fractional_max_pool2d draws
  // the samples [N, C, 2] in [0, 1) in its call; here they are an input, which makes the result
  // deterministic and comparable. The backward takes the forward's indices.
  auto fractional = [](bool backward) -> BuildFn {
    return [backward](const BuildContext& c, Args& a) {
      auto d = c.dims();
      at::Tensor x = ops::random(c, d);
      // Multiples of 1/8, so that a window's start (i + u) * alpha is the same in half precision
      // as in the float64 reference for these outputs (alpha = 2 or 2.5 here).
      at::Tensor samples = at::rand({d[0], d[1], 2}, c.options()).mul_(8).floor_().div_(8);
      a.lists = {{2, 2}, {d[2] / 2, d[3] / 2}};
      if (!backward) {
        a.t = {x, samples};
        return;
      }
      auto [values, where] = at::fractional_max_pool2d(x, {2, 2}, {d[2] / 2, d[3] / 2}, samples);
      a.t = {ops::random(c, values.sizes()), x, where};
    };
  };
  add(pool("FractionalMaxPool2dBenchmark", "N, C, H, W", fractional(false)),
      {{"fractional_max_pool2d", "fractional_max_pool2d"}});
  add(pool("FractionalMaxPool2dBenchmark", "N, C, H, W", fractional(true)),
      {{"fractional_max_pool2d_backward", "fractional_max_pool2d_backward"}});
  return out;
}

}  // namespace caliber
