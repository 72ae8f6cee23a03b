// Losses: FlagGems' GenericBenchmark2DOnly rows (N, C) for classification, same-shape pairs for
// regression losses; mean reduction as the functional API defaults.
#include <ATen/core/Tensor.h>
#include <ATen/ops/binary_cross_entropy.h>
#include <ATen/ops/binary_cross_entropy_with_logits.h>
#include <ATen/ops/cross_entropy_loss.h>
#include <ATen/ops/huber_loss.h>
#include <ATen/ops/kl_div.h>
#include <ATen/ops/l1_loss.h>
#include <ATen/ops/margin_ranking_loss.h>
#include <ATen/ops/mse_loss.h>
#include <ATen/ops/nll_loss.h>
#include <ATen/ops/nll_loss_nd.h>
#include <ATen/ops/smooth_l1_loss.h>
#include <ATen/ops/soft_margin_loss.h>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

using ops::Domain;

// logits [N, C] and class targets [N].
void class_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  int64_t n = d.size() > 1 ? d[0] : 1;
  int64_t classes = d.back();
  a.t = {ops::random(c, {n, classes}), ops::indices(c, {n}, classes)};
}

// FlagGems' nll_loss2d inputs: scores [N, C, H, W] and targets [N, H, W] in [0, W).
void image_class_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::indices(c, {d[0], d[2], d[3]}, d[3])};
}

// FlagGems' NllLoss2dBenchmark drops shapes over 2^29 elements (the backward's memory).
std::string over_2_29(const Shape& s) {
  int64_t n = 1;
  for (const auto& v : s.items) n *= v.integer;
  return n <= (int64_t{1} << 29) ? "" : "over FlagGems' nll_loss2d cap of 2^29 elements";
}

// log-probabilities for nll_loss.
void log_prob_inputs(const BuildContext& c, Args& a) {
  class_inputs(c, a);
  a.t[0] = a.t[0].log_softmax(1);
}

// test_nll_loss_nd.py: log_softmax(x, dim=1) of the shape, targets of the shape without dim 1.
void nd_log_prob_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  auto target = d;
  target.erase(target.begin() + 1);
  a.t = {ops::random(c, d).log_softmax(1), ops::indices(c, target, d[1])};
}

BuildFn pair(Domain input, Domain target) {
  return [input, target](const BuildContext& c, Args& a) {
    a.t = {ops::random(c, c.dims(), input), ops::random(c, c.dims(), target)};
  };
}

// Targets of +1 / -1 for margin losses.
BuildFn with_signs(int tensors) {
  return [tensors](const BuildContext& c, Args& a) {
    for (int k = 0; k < tensors; ++k) a.t.push_back(ops::random(c, c.dims()));
    a.t.push_back(ops::random(c, c.dims()).sign());
  };
}

OpDef loss(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kLoss)
      .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
      .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
      .more_shapes(ops::generic_more_shapes_2d())
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(3);
}

}  // namespace

std::vector<OpDef> loss_ops() {
  using A = Args;
  auto cross_entropy = [](A& a) { return at::cross_entropy_loss(a.t[0], a.t[1]); };
  auto nll = [](A& a) { return at::nll_loss(a.t[0], a.t[1]); };
  // F.nll_loss's entry for inputs of more than 2 dims (nll_loss2d_forward on 4-D ones).
  auto nll_nd = [](A& a) { return at::nll_loss_nd(a.t[0], a.t[1]); };
  auto mse = [](A& a) { return at::mse_loss(a.t[0], a.t[1]); };
  auto smooth_l1 = [](A& a) { return at::smooth_l1_loss(a.t[0], a.t[1]); };
  auto probs = pair(Domain::kUnit, Domain::kUnit);
  std::vector<OpDef> ops = {
      // FlagGems' benchmark times its fused flag_gems.cross_entropy_loss (which it registers
      // under no operator), not its log_softmax and nll_loss under ATen's composite.
      loss("cross_entropy_loss", class_inputs, cross_entropy)
          .aten({"aten::cross_entropy_loss", "aten::_log_softmax", "aten::nll_loss_forward"})
          .python_fn("cross_entropy_loss", {py_args::t(0), py_args::t(1)}),
      loss("cross_entropy_loss_backward", class_inputs, cross_entropy)
          .backward()
          .aten({"aten::_log_softmax_backward_data", "aten::nll_loss_backward"}),
      // FlagGems' nll_loss_forward mark times F.nll_loss on these inputs.
      loss("nll_loss", log_prob_inputs, nll)
          .aten({"aten::nll_loss_forward"})
          .aliases({"nll_loss_forward"}),
      loss("nll_loss_backward", log_prob_inputs, nll).backward(),
      loss("mse_loss", pair(Domain::kNormal, Domain::kNormal), mse),
      loss("mse_loss_backward", pair(Domain::kNormal, Domain::kNormal), mse).backward(),
      loss("l1_loss", pair(Domain::kNormal, Domain::kNormal),
           [](A& a) { return at::l1_loss(a.t[0], a.t[1]); })
          .aten({"aten::l1_loss", "aten::abs", "aten::mean"}),
      loss("smooth_l1_loss", pair(Domain::kNormal, Domain::kNormal), smooth_l1)
          .shape_key("SmoothL1LossBenchmark"),
      loss("smooth_l1_loss_backward", pair(Domain::kNormal, Domain::kNormal), smooth_l1).backward(),
      loss("huber_loss", pair(Domain::kNormal, Domain::kNormal),
           [](A& a) { return at::huber_loss(a.t[0], a.t[1]); }),
      loss(
          "binary_cross_entropy",
          [probs](const BuildContext& c, Args& a) {
            probs(c, a);
            a.t[0] = a.t[0].abs();
            a.t[1] = a.t[1].abs();
          },
          [](A& a) { return at::binary_cross_entropy(a.t[0], a.t[1]); }),
      loss("binary_cross_entropy_with_logits", pair(Domain::kNormal, Domain::kUnit),
           [](A& a) { return at::binary_cross_entropy_with_logits(a.t[0], a.t[1].abs()); }),
      loss(
          "kl_div", pair(Domain::kNormal, Domain::kNormal),
          [](A& a) { return at::kl_div(a.t[0].log_softmax(-1), a.t[1].log_softmax(-1), 1, true); }),
      loss("soft_margin_loss", with_signs(1),
           [](A& a) { return at::soft_margin_loss(a.t[0], a.t[1]); }),
      loss("margin_ranking_loss", with_signs(2),
           [](A& a) { return at::margin_ranking_loss(a.t[0], a.t[1], a.t[2]); })
          .shape_key("MarginRankingLossBenchmark"),
      // test_margin_ranking_loss.py's backward input_fn: margin 0.5, reduction 1 (mean).
      loss("margin_ranking_loss_backward", with_signs(2),
           [](A& a) { return at::margin_ranking_loss(a.t[0], a.t[1], a.t[2], 0.5, 1); })
          .shape_key("MarginRankingLossBenchmark")
          .backward()
          .aten({"aten::margin_ranking_loss"}),
      // test_nll_loss_nd.py: F.nll_loss of log_softmax(x, dim=1) and targets in [0, C) of the
      // shape without dim 1, on NLLLossNDBenchmark's own list (2-D to 5-D).
      loss("nll_loss_nd_forward", nd_log_prob_inputs, nll_nd)
          .shape_keys({"NLLLossNDBenchmark", "GenericBenchmark"})
          .aten({"aten::nll_loss_nd", "aten::nll_loss_forward", "aten::nll_loss2d_forward"}),
      loss("nll_loss_nd_backward", nd_log_prob_inputs, nll_nd)
          .shape_keys({"NLLLossNDBenchmark", "GenericBenchmark"})
          .backward()
          .aten({"aten::nll_loss_backward", "aten::nll_loss2d_backward"}),
      loss("nll_loss2d_forward", image_class_inputs, nll_nd)
          .shape_keys({"GenericBenchmark4DOnly"})
          .skip_shapes(over_2_29)
          .aten({"aten::nll_loss2d_forward"}),
      loss("nll_loss2d_backward", image_class_inputs, nll_nd)
          .shape_keys({"GenericBenchmark4DOnly"})
          .skip_shapes(over_2_29)
          .backward()
          .aten({"aten::nll_loss2d_backward"}),
  };
  return ops;
}

}  // namespace caliber
