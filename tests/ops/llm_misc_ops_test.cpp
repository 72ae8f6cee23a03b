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
