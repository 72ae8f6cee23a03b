// Convolution, pooling and resampling: FlagGems' Conv*Benchmark tuples and UpsampleBenchmark
// (N, C, H, W).
#include <ATen/core/Tensor.h>
#include <ATen/ops/_conv_depthwise2d.h>
#include <ATen/ops/_convolution_double_backward.h>
#include <ATen/ops/_convolution_mode.h>
#include <ATen/ops/adaptive_avg_pool2d.h>
#include <ATen/ops/avg_pool2d.h>
#include <ATen/ops/conv1d.h>
#include <ATen/ops/conv2d.h>
#include <ATen/ops/conv3d.h>
#include <ATen/ops/conv_transpose1d.h>
#include <ATen/ops/conv_transpose2d.h>
#include <ATen/ops/convolution.h>
#include <ATen/ops/cudnn_convolution.h>
#include <ATen/ops/max_pool2d.h>
#include <ATen/ops/upsample_bilinear2d.h>
#include <ATen/ops/upsample_nearest2d.h>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

// Direct convolution FLOPs: 2 * output elements * (C_in / groups) * kernel volume.
double conv_flops(const Args& a, const at::Tensor& out) {
  const at::Tensor& w = a.t[1];
  double per_output = 1;
  for (int64_t d = 1; d < w.dim(); ++d) per_output *= w.size(d);
  return 2.0 * static_cast<double>(out.numel()) * per_output;
}

// A stride, padding or dilation as one entry per spatial dim: what torch's Python layer hands the
// dispatcher for `F.conv2d(x, w, stride=1)` (SymInt[2] from an int), so that a candidate's
// override of aten::conv2d sees the lists FlagGems' conv2d unpacks (`h, w = stride`). ATen takes
// a one-entry list too, but a Python kernel receives it as it is.
std::vector<int64_t> per_dim(int64_t value, size_t spatial) {
  return std::vector<int64_t>(spatial, value);
}

// Conv1DBenchmark: N, C, L, C_out, K, stride, padding, groups.
void conv1d_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1], d[2]}), ops::random(c, {d[3], d[1] / d[7], d[4]})};
  a.i = {d[5], d[6], d[7]};
}

// Conv2DBenchmark: N, C_in, H, W, C_out, K_h, K_w, stride, padding, groups.
void conv2d_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1], d[2], d[3]}), ops::random(c, {d[4], d[1] / d[9], d[5], d[6]})};
  a.i = {d[7], d[8], d[9]};
}

// conv_transpose2d: the same tuple; the weight is [C_in, C_out / groups, K_h, K_w].
void conv_transpose2d_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1], d[2], d[3]}), ops::random(c, {d[1], d[4] / d[9], d[5], d[6]})};
  a.i = {d[7], d[8], d[9]};
}

// Conv3DBenchmark: N, C_in, D, H, W, C_out, K_d, K_h, K_w, stride, padding, groups.
void conv3d_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1], d[2], d[3], d[4]}),
         ops::random(c, {d[5], d[1] / d[11], d[6], d[7], d[8]})};
  a.i = {d[9], d[10], d[11]};
}

OpDef conv(const char* name, const char* key, const char* desc, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kConv)
      .shape_key(key)
      .shape_desc(desc)
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(conv_flops)
      .tolerance(3);
}

OpDef image(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kConv)
      .shape_key("UpsampleBenchmark")
      .shape_desc("N, C, H, W")
      .builtin_shapes({{1, 3, 512, 512}, {8, 16, 128, 128}, {2, 3, 1024, 1024}})
      .inputs(ops::tensors(1))
      .call(std::move(call))
      .flops(ops::output_numel)
      .tolerance(2);
}

const char* kConv2dDesc = "N, C_in, H, W, C_out, K_h, K_w, stride, padding, groups";

// FlagGems' Conv*PaddingBenchmark tuples: the Conv*Benchmark layout with a padding that is an
// integer or "valid" / "same". Args::i holds stride, padding, groups and the padding's kind.
enum PaddingKind : int64_t { kIntPadding = 0, kValid = 1, kSame = 2 };

BuildFn padded_conv_inputs(int spatial) {
  return [spatial](const BuildContext& c, Args& a) {
    const auto& items = c.shape_case.shape.items;
    auto at_ = [&](size_t k) { return items.at(k).integer; };
    const size_t n = static_cast<size_t>(spatial);
    const int64_t batch = at_(0), channels = at_(1), out_channels = at_(2 + n);
    const int64_t stride = at_(3 + 2 * n), groups = at_(5 + 2 * n);
    const auto& padding = items.at(4 + 2 * n);
    std::vector<int64_t> input = {batch, channels}, weight = {out_channels, channels / groups};
    for (size_t k = 0; k < n; ++k) {
      input.push_back(at_(2 + k));
      weight.push_back(at_(3 + n + k));
    }
    a.t = {ops::random(c, input), ops::random(c, weight)};
    const bool named = padding.kind == ShapeValue::Kind::kString;
    const int64_t kind = !named ? kIntPadding : padding.text == "same" ? kSame : kValid;
    a.i = {stride, named ? 0 : padding.integer, groups, kind};
  };
}

c10::string_view padding_name(const Args& a) { return a.i[3] == kSame ? "same" : "valid"; }

// _convolution_double_backward's cases: FlagGems' 2-D (N, C_in, H, W, C_out, K_h, K_w, stride,
// padding, dilation, groups, transposed, output padding h, w) and 1-D (N, C_in, L, C_out, K,
// stride, padding, dilation, groups, transposed, output padding) tuples. Args::t = ggI, ggW,
// ggb, gO, weight, x; Args::i = stride, padding, dilation, transposed, groups, output padding.
void double_backward_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const bool two_d = d.size() == 14;
  const int64_t n = d[0], cin = d[1];
  std::vector<int64_t> x_shape =
      two_d ? std::vector<int64_t>{n, cin, d[2], d[3]} : std::vector<int64_t>{n, cin, d[2]};
  const size_t k = two_d ? 4 : 3;  // C_out, then the kernel
  const int64_t cout = d[k];
  std::vector<int64_t> kernel(d.begin() + k + 1, d.begin() + k + (two_d ? 3 : 2));
  const size_t p = k + (two_d ? 3 : 2);  // stride, padding, dilation, groups, transposed
  const int64_t stride = d[p], padding = d[p + 1], dilation = d[p + 2], groups = d[p + 3];
  const bool transposed = d[p + 4] != 0;
  std::vector<int64_t> opad(d.begin() + p + 5, d.end());
  std::vector<int64_t> w_shape = transposed ? std::vector<int64_t>{cin, cout / groups}
                                            : std::vector<int64_t>{cout, cin / groups};
  w_shape.insert(w_shape.end(), kernel.begin(), kernel.end());
  const size_t spatial = kernel.size();
  at::Tensor x = ops::random(c, x_shape), w = ops::random(c, w_shape), b = ops::random(c, {cout});
  at::Tensor y = at::convolution(x, w, b, std::vector<int64_t>(spatial, stride),
                                 std::vector<int64_t>(spatial, padding),
                                 std::vector<int64_t>(spatial, dilation), transposed, opad, groups);
  a.t = {ops::random(c, x_shape),
         ops::random(c, w_shape),
         ops::random(c, {cout}),
         ops::random(c, y.sizes()),
         w,
         x};
  a.i = {stride, padding, dilation, transposed ? 1 : 0, groups};
  a.lists = {opad};
}

at::Tensor double_backward_call(Args& a) {
  const size_t spatial = static_cast<size_t>(a.t[5].dim() - 2);
  auto each = [spatial](int64_t v) { return std::vector<int64_t>(spatial, v); };
  return std::get<0>(at::_convolution_double_backward(
      a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], a.t[5], each(a.i[0]), each(a.i[1]), each(a.i[2]),
      a.i[3] != 0, a.lists[0], a.i[4], {true, true, true}));
}

// _convolution_mode's (N, C_in, H, W, C_out, K_h, K_w, stride, "valid" | "same", dilation,
// groups): the padding is a word, so the shape is read item by item.
void convolution_mode_inputs(const BuildContext& c, Args& a) {
  std::vector<int64_t> d;
  for (const auto& v : c.shape_case.shape.items) {
    d.push_back(v.kind == ShapeValue::Kind::kString ? (v.text == "same" ? 1 : 0) : v.integer);
  }
  a.t = {ops::random(c, {d[0], d[1], d[2], d[3]}),
         ops::random(c, {d[4], d[1] / d[10], d[5], d[6]})};
  a.i = {d[7], d[8], d[9], d[10]};
}

}  // namespace

std::vector<OpDef> conv_ops() {
  using A = Args;
  auto conv2d = [](A& a) {
    return at::conv2d(a.t[0], a.t[1], {}, per_dim(a.i[0], 2), per_dim(a.i[1], 2), per_dim(1, 2),
                      a.i[2]);
  };
  const char* kPaddedDesc = "N, C_in, *spatial, C_out, *kernel, stride, padding, groups";
  std::vector<OpDef> ops = {
      // FlagGems' ConvTranspose1dBenchmark: N, C, L, C_out, K, stride, padding, groups; the
      // weight is [C, C_out / groups, K].
      conv(
          "conv_transpose1d", "ConvTranspose1dBenchmark",
          "N, C, L, C_out, K, stride, padding, groups",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[1], d[2]}), ops::random(c, {d[1], d[3] / d[7], d[4]})};
            a.i = {d[5], d[6], d[7]};
          },
          [](A& a) { return at::conv_transpose1d(a.t[0], a.t[1], {}, a.i[0], a.i[1], 0, a.i[2]); })
          .aten({"aten::conv_transpose1d", "aten::convolution"}),
      conv("conv1d_padding", "Conv1DPaddingBenchmark", kPaddedDesc, padded_conv_inputs(1),
           [](A& a) {
             return a.i[3] == kIntPadding
                        ? at::conv1d(a.t[0], a.t[1], {}, a.i[0], a.i[1], 1, a.i[2])
                        : at::conv1d(a.t[0], a.t[1], {}, a.i[0], padding_name(a), 1, a.i[2]);
           })
          .dtypes({DType::kFloat16, DType::kFloat32})
          .aten({"aten::conv1d", "aten::conv1d.padding", "aten::convolution"}),
      conv("conv2d_padding", "Conv2DPaddingBenchmark", kPaddedDesc, padded_conv_inputs(2),
           [](A& a) {
             return a.i[3] == kIntPadding ? at::conv2d(a.t[0], a.t[1], {}, per_dim(a.i[0], 2),
                                                       per_dim(a.i[1], 2), per_dim(1, 2), a.i[2])
                                          : at::conv2d(a.t[0], a.t[1], {}, per_dim(a.i[0], 2),
                                                       padding_name(a), per_dim(1, 2), a.i[2]);
           })
          .aten({"aten::conv2d", "aten::conv2d.padding", "aten::convolution"}),
      conv("conv3d_padding", "Conv3DPaddingBenchmark", kPaddedDesc, padded_conv_inputs(3),
           [](A& a) {
             return a.i[3] == kIntPadding ? at::conv3d(a.t[0], a.t[1], {}, per_dim(a.i[0], 3),
                                                       per_dim(a.i[1], 3), per_dim(1, 3), a.i[2])
                                          : at::conv3d(a.t[0], a.t[1], {}, per_dim(a.i[0], 3),
                                                       padding_name(a), per_dim(1, 3), a.i[2]);
           })
          .aten({"aten::conv3d", "aten::conv3d.padding", "aten::convolution"}),
      conv("conv1d", "Conv1DBenchmark", "N, C, L, Co, K, stride, padding, groups", conv1d_inputs,
           [](A& a) { return at::conv1d(a.t[0], a.t[1], {}, a.i[0], a.i[1], 1, a.i[2]); })
          .builtin_shapes({{32, 64, 256, 64, 3, 1, 1, 1}, {64, 32, 512, 32, 5, 2, 2, 1}})
          .aten({"aten::conv1d", "aten::convolution", "aten::_convolution"}),
      conv("conv2d", "Conv2DBenchmark", kConv2dDesc, conv2d_inputs, conv2d)
          .builtin_shapes(
              {{32, 64, 128, 128, 32, 3, 3, 1, 1, 1}, {16, 32, 24, 24, 24, 3, 3, 1, 1, 2}})
          .aten({"aten::conv2d", "aten::convolution", "aten::_convolution"}),
      conv("conv2d_backward", "Conv2DBenchmark", kConv2dDesc, conv2d_inputs, conv2d)
          .builtin_shapes(
              {{32, 64, 128, 128, 32, 3, 3, 1, 1, 1}, {16, 32, 24, 24, 24, 3, 3, 1, 1, 2}})
          .backward()
          .aten({"aten::convolution_backward"}),
      // FlagGems registers its kernel under the bare aten::conv_transpose2d, which has no schema
      // (the operator is conv_transpose2d.input), so no call reaches it; its benchmark calls
      // flag_gems.conv_transpose2d(input=, weight=, bias=None, groups=, stride=, padding=).
      conv("conv_transpose2d", "conv_transpose2d", kConv2dDesc, conv_transpose2d_inputs,
           [](A& a) {
             return at::conv_transpose2d(a.t[0], a.t[1], {}, per_dim(a.i[0], 2), per_dim(a.i[1], 2),
                                         per_dim(0, 2), a.i[2]);
           })
          .builtin_shapes(
              {{1, 64, 128, 128, 64, 3, 3, 1, 1, 1}, {4, 32, 32, 32, 32, 3, 3, 2, 1, 1}})
          .aten({"aten::conv_transpose2d.input", "aten::convolution", "aten::_convolution"})
          .python_fn("conv_transpose2d",
                     {py_args::t(0), py_args::t(1), py_args::kw("bias", nullptr),
                      py_args::kw("groups", py_args::i(2)), py_args::kw("stride", py_args::i(0)),
                      py_args::kw("padding", py_args::i(1))}),
      conv("conv3d", "Conv3DBenchmark",
           "N, C_in, D, H, W, C_out, K_d, K_h, K_w, stride, padding, groups", conv3d_inputs,
           [](A& a) {
             return at::conv3d(a.t[0], a.t[1], {}, per_dim(a.i[0], 3), per_dim(a.i[1], 3),
                               per_dim(1, 3), a.i[2]);
           })
          .builtin_shapes({{16, 32, 24, 24, 24, 24, 3, 3, 3, 1, 1, 2}})
          .aten({"aten::conv3d", "aten::convolution", "aten::_convolution"}),
      image("max_pool2d",
            [](A& a) {
              return at::max_pool2d(a.t[0], {3, 3}, {2, 2}, {1, 1});
            })
          .aten({"aten::max_pool2d_with_indices", "aten::max_pool2d"}),
      image("max_pool2d_backward",
            [](A& a) {
              return at::max_pool2d(a.t[0], {3, 3}, {2, 2}, {1, 1});
            })
          .backward()
          .aten({"aten::max_pool2d_with_indices_backward"}),
      image("avg_pool2d",
            [](A& a) {
              return at::avg_pool2d(a.t[0], {3, 3}, {2, 2}, {1, 1});
            }),
      image("avg_pool2d_backward",
            [](A& a) {
              return at::avg_pool2d(a.t[0], {3, 3}, {2, 2}, {1, 1});
            })
          .backward(),
      image("adaptive_avg_pool2d",
            [](A& a) {
              return at::adaptive_avg_pool2d(a.t[0], {7, 7});
            })
          .aten({"aten::_adaptive_avg_pool2d", "aten::adaptive_avg_pool2d"}),
      image("upsample_nearest2d",
            [](A& a) {
              return at::upsample_nearest2d(a.t[0], {a.t[0].size(2) * 2, a.t[0].size(3) * 2});
            }),
      image("upsample_bilinear2d",
            [](A& a) {
              return at::upsample_bilinear2d(a.t[0], {a.t[0].size(2) * 2, a.t[0].size(3) * 2},
                                             /*align_corners=*/false);
            }),
      // _conv_depthwise2d(x, weight [C, 1, K_h, K_w], kernel, None, stride, padding, dilation):
      // FlagGems' (N, C, H, W, K_h, K_w, stride, padding, dilation) (ops/dismiss.yaml: CUDA).
      conv(
          "conv_depthwise2d", "ConvDepthwise2DBenchmark",
          "N, C, H, W, K_h, K_w, stride, padding, dilation",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[1], d[2], d[3]}), ops::random(c, {d[1], 1, d[4], d[5]})};
            a.i = {d[6], d[7], d[8]};
          },
          [](A& a) {
            return at::_conv_depthwise2d(a.t[0], a.t[1], {a.t[1].size(2), a.t[1].size(3)}, {},
                                         {a.i[0], a.i[0]}, {a.i[1], a.i[1]}, {a.i[2], a.i[2]});
          })
          .aten({"aten::_conv_depthwise2d"}),
      // cudnn_convolution(x, weight, padding, stride, dilation 1, groups, False, False, False):
      // FlagGems' CudnnConv2dBenchmark (N, C_in, H, W, C_out, K_h, K_w, stride, padding,
      // groups) (ops/dismiss.yaml: CUDA).
      conv("cudnn_convolution", "CudnnConv2dBenchmark", kConv2dDesc, conv2d_inputs,
           [](A& a) {
             return at::cudnn_convolution(a.t[0], a.t[1], {a.i[1], a.i[1]}, {a.i[0], a.i[0]},
                                          {1, 1}, a.i[2], false, false, false);
           })
          .aten({"aten::cudnn_convolution"}),
      // _convolution_double_backward(ggI, ggW, ggb, gO, weight, x, ..., [True] * 3).
      conv("convolution_double_backward", "ConvDoubleBackwardBenchmark",
           "2-D: N, C_in, H, W, C_out, K_h, K_w, stride, padding, dilation, groups, transposed, "
           "output padding (h, w); 1-D: N, C_in, L, C_out, K, stride, padding, dilation, groups, "
           "transposed, output padding",
           double_backward_inputs, double_backward_call)
          .dtypes({DType::kFloat32, DType::kFloat16})
          .flops({})
          .aten({"aten::_convolution_double_backward"}),
      // _convolution_mode(x, weight, None, stride, "valid" | "same", dilation, groups).
      conv("convolution_mode", "ConvolutionModeBenchmark",
           "N, C_in, H, W, C_out, K_h, K_w, stride, padding, dilation, groups",
           convolution_mode_inputs,
           [](A& a) {
             return at::_convolution_mode(a.t[0], a.t[1], {}, {a.i[0], a.i[0]},
                                          a.i[1] != 0 ? "same" : "valid", {a.i[2], a.i[2]}, a.i[3]);
           })
          .aten({"aten::_convolution_mode"}),
  };
  return ops;
}

}  // namespace caliber
