#include <ATen/ops/allclose.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ops/args.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

at::Tensor call(const std::string& op, std::vector<at::Tensor> inputs, std::vector<double> f = {},
                std::vector<int64_t> i = {}) {
  Args args;
  args.t = std::move(inputs);
  args.f = std::move(f);
  args.i = std::move(i);
  return find_op(op).call()(args);
}

at::Tensor values(std::vector<double> v, std::vector<int64_t> sizes) {
  return at::tensor(v, at::kDouble).reshape(sizes);
}

void expect_values(const at::Tensor& out, const std::vector<double>& expected) {
  ASSERT_EQ(out.numel(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(out.flatten()[i].item<double>(), expected[i], 1e-9) << "element " << i;
  }
}

// Each row of log_probs gets its beam's score: [[1, 2], [3, 4]] + [10, 20].
TEST(LlmMiscOps, BeamSearchScoreAddsEachBeamsScoreToItsRow) {
  at::Tensor out = call("beam_search_score", {values({1, 2, 3, 4}, {2, 2}), values({10, 20}, {2})});
  expect_values(out, {11, 12, 23, 24});
}

// Two steps of one head with K = V = 1, h0 = 0, scale 1:
// t0: g 0, k 1, v 3, beta 0.5 -> v' = 1.5, h = 1.5, o = q h = 2 * 1.5 = 3;
// t1: g log 0.5 -> h = 0.75, v' = (1 - 2 * 0.75) * 1 = -0.5, h = 0.75 + 2 * -0.5 = -0.25, o =
// -0.25.
TEST(LlmMiscOps, GatedDeltaRuleDecaysCorrectsAndReadsTheState) {
  at::Tensor out = call("chunk_gated_delta_rule_fwd",
                        {values({2, 1}, {1, 2, 1, 1}), values({1, 2}, {1, 2, 1, 1}),
                         values({3, 1}, {1, 2, 1, 1}), values({0, std::log(0.5)}, {1, 2, 1}),
                         values({0.5, 1}, {1, 2, 1}), at::zeros({1, 1, 1, 1}, at::kDouble)},
                        {1.0});
  expect_values(out, {3, -0.25});
}

// fused_recurrent_gated_delta_rule runs with use_qk_l2norm_in_kernel: q and k enter as unit rows
// (rsqrt(|x|^2 + 1e-6)), so scaling them changes nothing. Three one-token sequences of one head,
// K = V = 2, all starting from state slot 0.
TEST(LlmMiscOps, FusedRecurrentGatedDeltaRuleNormalisesQAndK) {
  auto run = [](double q_scale, double k_scale) {
    at::Tensor q = values({1, 2, -1, 0.5, 3, 1}, {1, 3, 1, 2});
    at::Tensor k = values({2, 1, 0.5, 1, -1, 2}, {1, 3, 1, 2});
    return call(
        "fused_recurrent_gated_delta_rule",
        {q.mul(q_scale), k.mul(k_scale), values({1, -2, 0.5, 3, 2, 1}, {1, 3, 1, 2}),
         values({0, -0.5, -1}, {1, 3, 1}), values({0.5, 0.8, 0.3}, {1, 3, 1}),
         values({0.1, 0.2, 0.3, 0.4}, {1, 1, 2, 2}), at::tensor(std::vector<int64_t>{0, 1, 2, 3}),
         at::zeros({3}, at::kLong), at::zeros({3, 1, 2, 2}, at::kDouble)},
        {1.0});
  };
  at::Tensor unit = run(1, 1);
  EXPECT_TRUE(at::allclose(run(10, 0.5), unit, 1e-5, 1e-6));
  // Token 0: q and k are [1, 2] / sqrt(5 + 1e-6) and [2, 1] / sqrt(5 + 1e-6); h0 = [[.1, .2],
  // [.3, .4]], g 0, beta 0.5, v [1, -2]: v' = (v - k^T h0) * 0.5, h = h0 + k v'^T, o = q^T h.
  const double n = 1.0 / std::sqrt(5 + 1e-6);
  const double q0 = n, q1 = 2 * n, k0 = 2 * n, k1 = n;
  const double v0 = (1 - (k0 * 0.1 + k1 * 0.3)) * 0.5, v1 = (-2 - (k0 * 0.2 + k1 * 0.4)) * 0.5;
  const double h00 = 0.1 + k0 * v0, h01 = 0.2 + k0 * v1, h10 = 0.3 + k1 * v0, h11 = 0.4 + k1 * v1;
  EXPECT_NEAR(unit.flatten()[0].item<double>(), q0 * h00 + q1 * h10, 1e-9);
  EXPECT_NEAR(unit.flatten()[1].item<double>(), q0 * h01 + q1 * h11, 1e-9);
}

// F.normalize over each head of k * kk, times a: k * kk = [3, 4] has norm 5, a = [2, 10].
TEST(LlmMiscOps, RwkvKaNormalisesEachHeadThenScalesByA) {
  at::Tensor out = call(
      "rwkv_ka_fusion",
      {values({3, 4}, {1, 2}), values({1, 1}, {2}), values({2, 10}, {1, 2}), values({0, 0}, {2})},
      {}, {1, 2});
  expect_values(out, {0.6 * 2, 0.8 * 10});
}

// x * post + comb^T @ residual for one token, two streams of width 1: x 1, post [2, 3],
// comb [[1, 2], [3, 4]], residual [5, 7] -> [2 + 1*5 + 3*7, 3 + 2*5 + 4*7].
TEST(LlmMiscOps, MhcPostMixesTheResidualStreams) {
  at::Tensor out = call("mhc_post", {values({1}, {1, 1}), values({5, 7}, {1, 2, 1}),
                                     values({2, 3}, {1, 2, 1}), values({1, 2, 3, 4}, {1, 2, 2})});
  expect_values(out, {28, 41});
}

}  // namespace
}  // namespace caliber
