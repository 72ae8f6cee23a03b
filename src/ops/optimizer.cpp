// Mixed-precision and optimizer steps by their ATen operators, with FlagGems' inputs: the AMP
// gradient unscale and loss-scale update, and the fused Adam step. These mutate their arguments
// and return nothing (or a list), so each call gives the tensor it updates.
#include <ATen/ops/_amp_foreach_non_finite_check_and_unscale.h>
#include <ATen/ops/_amp_update_scale.h>
#include <ATen/ops/_fused_adam.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros.h>

#include "ops/builders.h"
#include "ops/derived_families.h"

namespace caliber {
namespace {

OpDef step(const char* name, const char* key, const char* desc, std::vector<DType> dtypes,
           BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kTensor)
      .shape_key(key)
      .shape_desc(desc)
      .dtypes(std::move(dtypes))
      .inputs(std::move(inputs))
      .call(std::move(call))
      .aten({std::string("aten::_") + name});
}

// Adam's state for a parameter of the case's shape: param, grad ~ N(0, 1), zero moments, step 1.
// ATen takes no max_exp_avg_sqs without amsgrad (FlagGems passes zeros, which the kernel
// rejects), and a float32 0-dim step.
void adam_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, d), ops::random(c, d), at::zeros(d, c.options()), at::zeros(d, c.options()),
         at::scalar_tensor(1.0, c.options().dtype(at::kFloat))};
}

}  // namespace

std::vector<OpDef> optimizer_ops() {
  using A = Args;
  auto adam = [](bool inplace) {
    return [inplace](A& a) {
      const double lr = 0.001, beta1 = 0.9, beta2 = 0.999, weight_decay = 0.0, eps = 1e-8;
      if (inplace) {
        at::_fused_adam_({a.t[0]}, {a.t[1]}, {a.t[2]}, {a.t[3]}, {}, {a.t[4]}, lr, beta1, beta2,
                         weight_decay, eps, false, false);
        return a.t[0];
      }
      return std::get<0>(at::_fused_adam({a.t[0]}, {a.t[1]}, {a.t[2]}, {a.t[3]}, {}, {a.t[4]}, lr,
                                         beta1, beta2, weight_decay, eps, false, false))[0];
    };
  };
  std::vector<OpDef> ops = {
      // _amp_foreach_non_finite_check_and_unscale_([x, x[: M / 2]], found_inf 0, inv_scale 2).
      step(
          "amp_foreach_non_finite_check_and_unscale_",
          "AmpForeachNonFiniteCheckAndUnscaleBenchmark", "M, N", {DType::kFloat16, DType::kFloat32},
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            auto half = d;
            half[0] = std::max<int64_t>(1, d[0] / 2);
            auto f32 = c.options().dtype(at::kFloat);
            a.t = {ops::random(c, d), ops::random(c, half), at::scalar_tensor(0.0, f32),
                   at::scalar_tensor(2.0, f32)};
          },
          [](A& a) {
            at::_amp_foreach_non_finite_check_and_unscale_({a.t[0], a.t[1]}, a.t[2], a.t[3]);
            return a.t[0];
          })
          .inplace()
          .more_shapes({{1024, 4}, {1024, 64}, {1024, 1024}, {64, 4, 64}, {64, 64, 64}}),
      // _amp_update_scale_(scale 65536, tracker 0, found_inf 0, 2.0, 0.5, 2e9): FlagGems' first
      // (no-inf) state.
      step(
          "amp_update_scale_", "AmpUpdateScaleBenchmark", "scalar", {DType::kFloat32},
          [](const BuildContext& c, A& a) {
            a.t = {at::scalar_tensor(65536.0, c.options()),
                   at::scalar_tensor(0, c.options().dtype(at::kInt)),
                   at::scalar_tensor(0.0, c.options())};
          },
          [](A& a) { return at::_amp_update_scale_(a.t[0], a.t[1], a.t[2], 2.0, 0.5, 2000000000); })
          .inplace(),
      // _fused_adam_ / _fused_adam: one parameter, lr 1e-3, betas (0.9, 0.999), eps 1e-8.
      step("fused_adam_", "FusedAdamBenchmark", "parameter shape", {DType::kFloat32}, adam_inputs,
           adam(true))
          .inplace(),
      step("fused_adam", "FusedAdamBenchmark", "parameter shape", {DType::kFloat32}, adam_inputs,
           adam(false)),
  };
  return ops;
}

}  // namespace caliber
