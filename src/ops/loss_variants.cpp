// Loss backward and out= ops by their ATen operators, with FlagGems' input_fn tensors (BCE's
// probabilities in [1e-4, 1 - 1e-4] and 0/1 targets, soft margin's +-1 targets).
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/ctc_loss.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/zeros.h>

#include <algorithm>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kOut;

ops::Prototype loss(BuildFn inputs) {
  return [=](const std::string& name) {
    return OpDef(name).family(Family::kLoss).inputs(inputs).flops(ops::input_numel).tolerance(4);
  };
}

at::Tensor zero_or_one(const BuildContext& c) { return at::randint(0, 2, c.dims(), c.options()); }

}  // namespace

std::vector<OpDef> loss_variant_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  // binary_cross_entropy(sigmoid(x), target) with a 0-dim out= tensor, GenericBenchmark2DOnly.
  add(
      [](const std::string& name) {
        return loss([](const BuildContext& c, Args& a) {
                 a.t = {at::sigmoid(ops::random(c, c.dims())), zero_or_one(c)};
               })(name)
            .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
            .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
            .more_shapes(ops::generic_more_shapes_2d());
      },
      {{"binary_cross_entropy", "binary_cross_entropy", kOut}});
  // binary_cross_entropy_backward(ones, p, target, weight, reduction none) on FlagGems' list.
  add(
      [](const std::string& name) {
        return loss([](const BuildContext& c, Args& a) {
                 at::Tensor p = at::clamp(at::rand(c.dims(), c.options()), 1e-4, 1 - 1e-4);
                 a.t = {at::ones_like(p), p, zero_or_one(c), at::rand(c.dims(), c.options())};
                 a.i = {0};
               })(name)
            .shape_key("BinaryCrossEntropyBackwardBenchmark")
            .shape_desc("input shape");
      },
      {{"binary_cross_entropy_backward", "binary_cross_entropy_backward"}});
  // soft_margin_loss_backward(ones, x, +-1 target, reduction mean), GenericBenchmark.
  add(
      [](const std::string& name) {
        return loss([](const BuildContext& c, Args& a) {
                 at::Tensor x = ops::random(c, c.dims());
                 a.t = {at::ones_like(x), x, zero_or_one(c) * 2 - 1};
                 a.i = {1};
               })(name)
            .shape_key("GenericBenchmark")
            .more_shapes(ops::generic_more_shapes());
      },
      {{"soft_margin_loss_backward", "soft_margin_loss_backward"}});
  // ctc_loss(log_softmax(randn [T, N, C]), padded targets, lengths T, target lengths, blank 0,
  // mean): FlagGems' (T, N, C, S) and its first (padded) target layout; row r's target is
  // max(1, S - r % 5) labels (arange + r) % (C - 1) + 1. Its baseline computes half inputs in
  // float32 and casts the loss back, as here.
  out.push_back(
      loss([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        const int64_t t = d[0], n = d[1], classes = d[2], s = d[3];
        auto longs = at::TensorOptions().dtype(at::kLong);
        at::Tensor targets = at::zeros({n, s}, longs), lengths = at::zeros({n}, longs);
        for (int64_t r = 0; r < n; ++r) {
          const int64_t length = std::max<int64_t>(1, s - r % 5);
          lengths[r] = length;
          targets[r]
              .slice(0, 0, length)
              .copy_(at::arange(length, longs).add(r).remainder(classes - 1).add(1));
        }
        at::Tensor raw = at::randn({t, n, classes}, at::TensorOptions().dtype(at::kFloat));
        a.t = {raw.log_softmax(-1).to(c.device, c.scalar_type()), targets.to(c.device),
               at::full({n}, t, longs.device(c.device)), lengths.to(c.device)};
      })("ctc_loss")
          .shape_key("ctc_loss")
          .shape_desc("T, N, C, S")
          .dtypes({DType::kFloat32, DType::kFloat16})
          .call([](Args& a) {
            const at::ScalarType type = a.t[0].scalar_type();
            at::Tensor log_probs =
                type == at::kFloat || type == at::kDouble ? a.t[0] : a.t[0].to(at::kFloat);
            return at::ctc_loss(log_probs, a.t[1], a.t[2], a.t[3]).to(type);
          })
          .aten({"aten::ctc_loss.Tensor", "aten::_ctc_loss"}));
  return out;
}

}  // namespace caliber
