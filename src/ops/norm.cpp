// Normalisation: FlagGems' NormBenchmark, shapes (N, C, *); layer norm over all but N, group
// norm with C / 2 groups, RMS norm over the last dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_weight_norm.h>
#include <ATen/ops/batch_norm.h>
#include <ATen/ops/group_norm.h>
#include <ATen/ops/instance_norm.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/rms_norm.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

// inputs: x, weight, bias over `normalized` (the dims after N); lists[0] = normalized shape.
void layer_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  std::vector<int64_t> normalized(d.begin() + 1, d.end());
  a.t = {ops::random(c, d), ops::random(c, normalized), ops::random(c, normalized)};
  a.lists = {normalized};
}

// inputs: x, weight[C], bias[C]; i[0] = groups.
void channel_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random(c, {d[1]}), ops::random(c, {d[1]})};
  a.i = {std::max<int64_t>(d[1] / 2, 1)};
}

// inputs: x, weight over the last dim.
void rms_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random(c, {d.back()})};
  a.lists = {{d.back()}};
}

void weight_norm_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  std::vector<int64_t> g_shape(d.size(), 1);
  g_shape[0] = d[0];
  a.t = {ops::random(c, d), ops::random(c, g_shape, ops::Domain::kPositive)};
}

// FlagGems' order: layer_norm (x, normalized_shape, weight, bias), group_norm (x, groups,
// weight, bias), rms_norm (x, normalized_shape, weight).
SizeDetail layer_detail(const Args& a) {
  return SizeDetail{}
      .arg(size_of(a.t[0]))
      .arg(PyValue::ints(a.lists[0]))
      .arg(size_of(a.t[1]))
      .arg(size_of(a.t[2]));
}
SizeDetail group_detail(const Args& a) {
  return SizeDetail{}
      .arg(size_of(a.t[0]))
      .arg(PyValue::of(a.i[0]))
      .arg(size_of(a.t[1]))
      .arg(size_of(a.t[2]));
}
SizeDetail batch_detail(const Args& a) {
  return SizeDetail{}
      .arg(size_of(a.t[0]))
      .arg(size_of(a.t[1]))
      .arg(size_of(a.t[2]))
      .arg(PyValue::none())
      .arg(PyValue::none())
      .arg(PyValue::flag(true))
      .arg(PyValue::real_number(0.1))
      .arg(PyValue::real_number(1e-5))
      .arg(PyValue::flag(true));
}
SizeDetail rms_detail(const Args& a) {
  return SizeDetail{}.arg(size_of(a.t[0])).arg(PyValue::ints(a.lists[0])).arg(size_of(a.t[1]));
}

OpDef norm(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kNorm)
      .shape_key("NormBenchmark")
      .shape_desc("N, C, *")
      .builtin_shapes(
          {{4, 16, 64, 4}, {16, 16, 8, 48}, {16, 16, 8, 88}, {16, 16, 128}, {20, 6, 65536}})
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(2);
}

OpDef rms(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kNorm)
      .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
      .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
      .more_shapes(ops::generic_more_shapes_2d())
      .inputs(rms_inputs)
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(2);
}

}  // namespace

std::vector<OpDef> norm_ops() {
  using A = Args;
  auto layer = [](A& a) { return at::layer_norm(a.t[0], a.lists[0], a.t[1], a.t[2]); };
  auto group = [](A& a) { return at::group_norm(a.t[0], a.i[0], a.t[1], a.t[2]); };
  auto batch = [](A& a) {
    // test_batch_norm.py: torch.batch_norm without running statistics, cudnn_enabled=True.
    return at::batch_norm(a.t[0], a.t[1], a.t[2], {}, {}, /*training=*/true, 0.1, 1e-5, true);
  };
  auto rms_norm = [](A& a) { return at::rms_norm(a.t[0], a.lists[0], a.t[1], 1e-6); };
  std::vector<OpDef> ops = {
      norm("layer_norm", layer_inputs, layer)
          .aten({"aten::native_layer_norm"})
          .detail(layer_detail),
      // layer_norm_backward calls native_layer_norm_backward as FlagGems does (norm_variants.cpp).
      norm("group_norm", channel_inputs, group)
          .aten({"aten::native_group_norm"})
          .detail(group_detail),
      norm("group_norm_backward", channel_inputs, group)
          .backward()
          .aten({"aten::native_group_norm_backward"}),
      norm("batch_norm", channel_inputs, batch)
          .detail(batch_detail)
          .aten({"aten::native_batch_norm", "aten::_native_batch_norm_legit"}),
      norm("batch_norm_backward", channel_inputs, batch)
          .backward()
          .aten({"aten::native_batch_norm_backward"}),
      norm("instance_norm", channel_inputs,
           [](A& a) {
             return at::instance_norm(a.t[0], a.t[1], a.t[2], {}, {}, true, 0.1, 1e-5, false);
           })
          .aten({"aten::native_batch_norm"})
          // FlagGems' benchmark times its fused flag_gems.instance_norm (registered under no
          // operator) with its input_fn's arguments, cudnn_enabled True included.
          .python_fn("instance_norm", {py_args::t(0), py_args::t(1), py_args::t(2), nullptr,
                                       nullptr, true, 0.1, 1e-5, true}),
      norm("weight_norm", weight_norm_inputs,
           [](A& a) { return at::_weight_norm(a.t[0], a.t[1], 0); })
          .shape_key("GenericBenchmarkExcluse1D")
          .aten({"aten::_weight_norm_interface"}),
      rms("rms_norm", rms_norm)
          .aten({"aten::rms_norm", "aten::_fused_rms_norm"})
          .detail(rms_detail),
      rms("rms_norm_backward", rms_norm).backward().aten({"aten::_fused_rms_norm_backward"}),
  };
  return ops;
}

}  // namespace caliber
