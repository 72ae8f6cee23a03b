// Loss backward and out= ops by their ATen operators, with FlagGems' input_fn tensors (BCE's
// probabilities in [1e-4, 1 - 1e-4] and 0/1 targets, soft margin's +-1 targets).
#include <ATen/TensorOperators.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/sigmoid.h>

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
  auto add = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(std::move(op));
  };
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
  return out;
}

}  // namespace caliber
