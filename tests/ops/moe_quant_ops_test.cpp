#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/shape.h"
#include "ops/args.h"
#include "ops/op_def.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

at::Tensor call(const std::string& op, Args& args) { return find_op(op).call()(args); }

at::Tensor row(std::vector<double> values) {
  return at::tensor(values, at::kDouble).reshape({1, -1});
}

void expect_values(const at::Tensor& out, const std::vector<double>& expected) {
  ASSERT_EQ(out.numel(), static_cast<int64_t>(expected.size()));
  at::Tensor flat = out.to(at::kDouble).flatten();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(flat[i].item<double>(), expected[i], 1e-6) << "element " << i;
  }
}

// Blocks of 2: [224, -112] has amax 224, scale 0.5 (already a power of two); [3, 0.75] has scale
// 3 / 448, which ue8m0 rounds up to 2^-7, giving 384 and 96 (both exact in float8_e4m3fn).
TEST(MoeQuantOps, ActQuantRoundsUe8m0ScalesUpToAPowerOfTwo) {
  Args a;
  a.t = {row({224, -112, 3, 0.75})};
  a.i = {2, 1};
  at::Tensor out = call("act_quant_triton", a);
  EXPECT_EQ(out.scalar_type(), at::kFloat8_e4m3fn);
  expect_values(out, {448, -224, 384, 96});
  a.i = {2, 0};  // plain amax / 448: the block's amax maps to 448
  expect_values(call("act_quant_triton", a), {448, -224, 448, 112});
}

// Groups of 2: amax 2 and 0.5 both map to 448.
TEST(MoeQuantOps, PerTokenGroupQuantMapsEachGroupsAmaxTo448) {
  Args a;
  a.t = {row({1, -2, 0.5, 0.25})};
  a.i = {2, 0};
  expect_values(call("per_token_group_quant_fp8", a), {224, -448, 448, 224});
}

// scores sqrt(softplus(g)); the bias of 10 picks expert 2 first, then expert 1 by score; weights
// are the unbiased scores renormalised, token_expert_indices token * topk + slot.
TEST(MoeQuantOps, TopkSoftplusSqrtChoosesWithTheBiasAndWeighsWithoutIt) {
  Args a;
  a.t = {at::empty({1, 2}, at::kDouble), at::empty({1, 2}, at::kInt), at::empty({1, 2}, at::kInt),
         row({0, 1, -1}), at::tensor({0.0, 0.0, 10.0}, at::kDouble)};
  a.i = {1};
  a.f = {1.0};
  call("topk_softplus_sqrt", a);
  const double s1 = std::sqrt(std::log1p(std::exp(1.0)));
  const double s2 = std::sqrt(std::log1p(std::exp(-1.0)));
  expect_values(a.t[0], {s2 / (s1 + s2), s1 / (s1 + s2)});
  expect_values(a.t[1], {2, 1});
  expect_values(a.t[2], {0, 1});
}

// Token [1, 2] routed to expert 1 ([5, 6], weight 0.25) and expert 0 ([3, 4], weight 0.75).
TEST(MoeQuantOps, DispatchFusedMoeWeighsEachRoutedExpertsProduct) {
  Args a;
  a.t = {row({1, 2}), at::tensor({3.0, 4.0, 5.0, 6.0}, at::kDouble).reshape({2, 1, 2}),
         at::empty({1, 2, 1}, at::kDouble), row({0.25, 0.75}),
         at::tensor(std::vector<int32_t>{1, 0}).reshape({1, 2})};
  expect_values(call("dispatch_fused_moe_kernel", a), {17 * 0.25, 11 * 0.75});
}

// [1, 2, 4] padded to [1, 2, 4, 0], times the rows of Sylvester's H4, cropped back to 3.
TEST(MoeQuantOps, HadamardTransformMnPadsToAPowerOfTwoAndCrops) {
  at::Tensor h4 =
      at::tensor(std::vector<double>{1, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1, 1, -1, -1, 1})
          .reshape({4, 4});
  Args a;
  a.t = {row({1, 2, 4}), h4};
  expect_values(call("hadamard_transform_mn", a), {7, 3, -1});
}

// One 128-wide row: the first 32-group all 1.0 (scale 1 / 448 rounds up to 2^-8, so 256), the rest
// zeros (amax clamped to 1e-4: 2^-22). x_sf packs the four exponent bytes into one int32.
TEST(MoeQuantOps, StageMegaMoeInputsPacksUe8m0ExponentBytes) {
  at::Tensor hidden = at::zeros({1, 128}, at::kDouble);
  hidden.narrow(1, 0, 32).fill_(1.0);
  Args a;
  a.t = {hidden,
         at::full({1, 2}, 0.5, at::kDouble),
         at::tensor(std::vector<int32_t>{3, 7}).reshape({1, 2}),
         at::empty({1, 128}, at::kFloat8_e4m3fn),
         at::empty({1, 1}, at::kInt),
         at::empty({1, 2}, at::kLong),
         at::empty({1, 2}, at::kDouble)};
  at::Tensor q = call("stage_deepseek_v4_mega_moe_inputs", a);
  std::vector<double> expected(128, 0.0);
  for (int i = 0; i < 32; ++i) expected[i] = 256;
  expect_values(q, expected);
  const int64_t first = 127 - 8, rest = 127 - 22;
  const int64_t packed = first | rest << 8 | rest << 16 | rest << 24;
  EXPECT_EQ(a.t[4].item<int32_t>(), static_cast<int32_t>(packed));
  expect_values(a.t[5], {3, 7});
}

// The builder lays out moe_align_block_size's outputs for FlagGems' kernel: every (token, slot)
// once, in a 16-row block of its expert, padding rows holding numel.
TEST(MoeQuantOps, DispatchFusedMoeInputsAlignEachExpertsRowsToBlocks) {
  const OpDef& op = find_op("dispatch_fused_moe_kernel");
  BuildContext context;
  context.op = op.name();
  context.shape_case = {Shape{32, 8, 128, 128, 2}, false};
  context.dtype = DType::kBFloat16;
  Args a;
  op.inputs()(context, a);
  ASSERT_EQ(a.t.size(), 8u);
  at::Tensor ids = a.t[4].flatten().to(at::kLong), sorted = a.t[5].to(at::kLong);
  at::Tensor experts = a.t[6].to(at::kLong);
  const int64_t numel = ids.numel(), total = a.t[7].item<int64_t>();
  EXPECT_EQ(total % 16, 0);
  std::vector<int> seen(numel, 0);
  for (int64_t row = 0; row < total; ++row) {
    const int64_t id = sorted[row].item<int64_t>();
    if (id == numel) continue;
    ASSERT_LT(id, numel);
    ++seen[id];
    EXPECT_EQ(ids[id].item<int64_t>(), experts[row / 16].item<int64_t>()) << "row " << row;
  }
  for (int64_t i = 0; i < numel; ++i) EXPECT_EQ(seen[i], 1) << "route " << i;
}

}  // namespace
}  // namespace caliber
