// Upsampling by its ATen operators on UpsampleBenchmark's (N, C, H, W), with FlagGems' input_fn
// geometry: 1-D ops upsample (N, C, H * W) to twice its length, 3-D ops (N, C, 4, H / 4, W / 4)
// to twice each dim, 2-D ops (N, C, H, W) to (2H, 2W); align_corners False.
#include <ATen/core/List.h>
#include <ATen/ops/rand.h>

#include <algorithm>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;

BuildFn one_d() {
  return [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    const int64_t length = d[2] * d[3];
    a.t = {ops::random(c, {d[0], d[1], length})};
    a.lists = {{2 * length}};
  };
}

BuildFn two_d() {
  return [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, {d[0], d[1], d[2], d[3]})};
    a.lists = {{2 * d[2], 2 * d[3]}};
  };
}

BuildFn three_d() {
  return [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    const int64_t depth = 4, height = d[2] / depth, width = d[3] / 4;
    a.t = {ops::random(c, {d[0], d[1], depth, height, width})};
    a.lists = {{2 * depth, 2 * height, 2 * width}};
  };
}

// FlagGems' nearest_exact benchmarks: the shape is the input, the output twice its last dims.
BuildFn exact(int spatial) {
  return [spatial](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, d)};
    std::vector<int64_t> size(d.end() - spatial, d.end());
    for (auto& s : size) s *= 2;
    a.lists = {size};
  };
}

ops::Prototype upsample(BuildFn inputs, const char* key = "UpsampleBenchmark") {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(Family::kConv)
        .shape_key(key)
        .shape_desc("N, C, H, W")
        .inputs(inputs)
        .flops(ops::output_numel)
        .tolerance(2);
  };
}

}  // namespace

std::vector<OpDef> upsample_ops() {
  const ops::ArgValue kNoAlign{"align_corners", false};
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  add(upsample(one_d()), {
                             {"upsample_nearest1d", "upsample_nearest1d"},
                             {"upsample_linear1d", "upsample_linear1d", kBase, {kNoAlign}},
                         });
  // float32 first: ATen's CPU anti-aliased kernels lack Half/BFloat16 (ops/dismiss.yaml).
  add(
      [](const std::string& name) {
        return upsample(two_d())(name).dtypes({DType::kFloat32, DType::kFloat16, DType::kBFloat16});
      },
      {
          {"upsample_bicubic2d_aa", "_upsample_bicubic2d_aa", kBase, {kNoAlign}},
          {"upsample_bilinear2d_aa", "_upsample_bilinear2d_aa", kBase, {kNoAlign}},
      });
  add(upsample(three_d()), {
                               {"upsample_nearest3d", "upsample_nearest3d"},
                               {"upsample_trilinear3d", "upsample_trilinear3d", kBase, {kNoAlign}},
                           });
  add(upsample(exact(1), "UpsampleNearestExact1dBenchmark"),
      {{"upsample_nearest_exact1d", "_upsample_nearest_exact1d"}});
  add(upsample(exact(2), "UpsampleNearestExact2dBenchmark"),
      {{"upsample_nearest_exact2d", "_upsample_nearest_exact2d"}});
  // _upsample_nearest_exact2d_backward(ones of the (2H, 2W) output, output size, input size).
  add(upsample(
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[1], 2 * d[2], 2 * d[3]})};
            a.lists = {{2 * d[2], 2 * d[3]}, d};
          },
          "UpsampleNearestExact2dBackwardBenchmark"),
      {{"upsample_nearest_exact2d_backward", "_upsample_nearest_exact2d_backward"}});
  // upsample_bicubic2d.vec(x, None, align_corners False, scale_factors [2, 2]) on
  // UpsampleBenchmark's shapes as they are (FlagGems' first of its two align_corners).
  add(upsample(ops::tensors(1)), {{"upsample_bicubic2d",
                                   "upsample_bicubic2d.vec",
                                   kBase,
                                   {kNoAlign, {"scale_factors", std::vector<double>{2.0, 2.0}}}}});
  add(upsample(exact(3), "UpsampleNearestExact3dBenchmark"),
      {{"upsample_nearest_exact3d", "_upsample_nearest_exact3d"}});
  // im2col(x, kernel 3x3, dilation 1, padding 1, stride 1): FlagGems' first of four configs.
  add(upsample(
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random(c, c.dims())};
            a.lists = {{3, 3}, {1, 1}, {1, 1}, {1, 1}};
          },
          "Im2colBenchmark"),
      {{"im2col", "im2col"}});
  // col2im of FlagGems' (B, C, kernel h/w, output h/w, stride h/w, padding h/w, dilation h/w):
  // columns [B, C * kh * kw, L] for the L sliding blocks.
  add(upsample(
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            auto blocks = [&](int k) {
              return (d[4 + k] + 2 * d[8 + k] - d[10 + k] * (d[2 + k] - 1) - 1) / d[6 + k] + 1;
            };
            a.t = {ops::random(c, {d[0], d[1] * d[2] * d[3], blocks(0) * blocks(1)})};
            a.lists = {{d[4], d[5]}, {d[2], d[3]}, {d[10], d[11]}, {d[8], d[9]}, {d[6], d[7]}};
          },
          "Col2ImBenchmark"),
      {{"col2im", "col2im"}});
  // _upsample_{bilinear,bicubic}2d_aa_backward(grad [N, C, Ho, Wo], (Ho, Wo), (N, C, Hi, Wi),
  // align_corners False): FlagGems' (N, C, Hi, Wi, Ho, Wo) configurations, one list for both.
  add(
      [](const std::string& name) {
        return upsample(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, {d[0], d[1], d[4], d[5]})};
                     a.lists = {{d[4], d[5]}, {d[0], d[1], d[2], d[3]}};
                   },
                   "UpsampleAaBackwardBenchmark")(name)
            .shape_desc("N, C, H_in, W_in, H_out, W_out")
            .dtypes({DType::kFloat32, DType::kFloat16, DType::kBFloat16});
      },
      {
          {"upsample_bilinear2d_aa_backward",
           "_upsample_bilinear2d_aa_backward",
           kBase,
           {kNoAlign}},
          {"upsample_bicubic2d_aa_backward", "_upsample_bicubic2d_aa_backward", kBase, {kNoAlign}},
      });
  // upsample_linear1d_backward(grad [n, c, w / 2], (w / 2), (n, c, w), False, 0.5): Benchmark's
  // shapes as (1, 1, w), (1, m, w) or (n, c, w), FlagGems' first scale (0.5); it skips a case
  // whose n * c * w reaches 2^30.
  add(
      [](const std::string& name) {
        return upsample(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     while (d.size() < 3) d.insert(d.begin(), 1);
                     const int64_t w_out = std::max<int64_t>(1, d[2] / 2);
                     a.t = {ops::random(c, {d[0], d[1], w_out})};
                     a.lists = {{w_out}, d};
                   },
                   "UpsampleLinear1dBackwardBenchmark")(name)
            .shape_keys({"UpsampleLinear1dBackwardBenchmark", "Benchmark"})
            .shape_desc("(N), (C), W")
            .more_shapes({{512 * 1024 * 1024},
                          {512, 1024, 1024},
                          {4, 16, 16},
                          {4, 16, 64},
                          {4, 16, 256},
                          {4, 16, 1024},
                          {4, 16, 4096},
                          {16, 64},
                          {16, 256},
                          {16, 1024},
                          {16, 4096},
                          {16, 16384}})
            .skip_shapes([](const Shape& shape) -> std::string {
              if (!shape.is_flat()) return "";
              int64_t n = 1;
              for (int64_t v : shape.dims("upsample_linear1d_backward")) n *= v;
              return n >= (int64_t{1} << 30) ? "FlagGems skips n * c * w >= 2^30" : "";
            });
      },
      {{"upsample_linear1d_backward",
        "upsample_linear1d_backward",
        kBase,
        {kNoAlign, {"scales", 0.5}}}});
  // grid_sampler_3d_backward(grad [N, C, oD, oH, oW], x [N, C, iD, iH, iW], grid U(-1, 1),
  // bilinear, zeros, align_corners True, [True, True]): FlagGems' (N, C, iD, iH, iW, oD, oH, oW).
  add(
      [](const std::string& name) {
        return upsample(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, {d[0], d[1], d[5], d[6], d[7]}),
                            ops::random(c, {d[0], d[1], d[2], d[3], d[4]}),
                            at::rand({d[0], d[5], d[6], d[7], 3}, c.options()).mul_(2).sub_(1)};
                     a.i = {0, 0};
                   },
                   "GridSampler3dBackwardBenchmark")(name)
            .shape_desc("N, C, iD, iH, iW, oD, oH, oW")
            .dtypes({DType::kFloat32})
            .tolerance(4);
      },
      {{"grid_sampler_3d_backward",
        "grid_sampler_3d_backward",
        kBase,
        {{"align_corners", true}, {"output_mask", c10::List<bool>({true, true})}}}});
  // affine_grid_generator(theta [N, 2, 3], [N, 3, H, W], align_corners False).
  add(
      [](const std::string& name) {
        return upsample(
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, {d[0], 2, 3})};
                     a.lists = {{d[0], 3, d[1], d[2]}};
                   },
                   "AffineGridBenchmark")(name)
            .shape_desc("N, H, W")
            .dtypes({DType::kFloat32});
      },
      {{"affine_grid_generator", "affine_grid_generator", kBase, {kNoAlign}}});
  // upsample_bicubic2d.vec is a composite of the default overload, which FlagGems overrides.
  ops::also_reaches(out, "upsample_bicubic2d", "aten::upsample_bicubic2d");
  return out;
}

}  // namespace caliber
