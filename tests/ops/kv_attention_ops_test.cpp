#include <ATen/TensorIndexing.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ops/args.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

at::Tensor values(std::vector<double> v, at::IntArrayRef shape) {
  return at::tensor(v, at::kDouble).reshape(shape);
}

at::Tensor slots(std::vector<int64_t> v) { return at::tensor(v, at::kLong); }

void expect_values(const at::Tensor& out, const std::vector<double>& expected) {
  ASSERT_EQ(out.numel(), static_cast<int64_t>(expected.size()));
  at::Tensor flat = out.contiguous().flatten();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(flat[i].item<double>(), expected[i], 1e-9) << "element " << i;
  }
}

// Slot 3 of blocks of 2 is block 1, offset 1; slot 0 is block 0, offset 0. The other rows keep
// what the cache held.
TEST(KvAttentionOps, ReshapeAndCacheFlashWritesEachTokenAtItsSlot) {
  Args a;
  a.t = {values({10, 20}, {2, 1, 1}), values({30, 40}, {2, 1, 1}),
         at::full({2, 2, 1, 1}, -1.0, at::kDouble), at::full({2, 2, 1, 1}, -2.0, at::kDouble),
         slots({3, 0})};
  find_op("reshape_and_cache_flash").call()(a);
  expect_values(a.t[2], {20, -1, -1, 10});
  expect_values(a.t[3], {40, -2, -2, 30});
}

// The key cache packs head_size 4 as 2 x 2 [.., head_size / x, block_size, x]: the token's key
// [1, 2, 3, 4] fills offset 1 of each x-row; the value cache is [.., head_size, block_size].
TEST(KvAttentionOps, ReshapeAndCacheSplitsTheKeyIntoXPackedRows) {
  Args a;
  a.t = {values({1, 2, 3, 4}, {1, 1, 4}), values({5, 6, 7, 8}, {1, 1, 4}),
         at::zeros({1, 1, 2, 2, 2}, at::kDouble), at::zeros({1, 1, 4, 2}, at::kDouble), slots({1})};
  find_op("reshape_and_cache").call()(a);
  expect_values(a.t[2], {0, 0, 1, 2, 0, 0, 3, 4});
  expect_values(a.t[3], {0, 5, 0, 6, 0, 7, 0, 8});
}

// The reference rebuilds the whole cache from zeros: the old contents go, slot 2 (block 1,
// offset 0) holds [kv_c | k_pe].
TEST(KvAttentionOps, ConcatAndCacheMlaReplacesTheCacheWithTheConcatenatedTokens) {
  Args a;
  a.t = {values({7, 8}, {1, 2}), values({9}, {1, 1}), at::ones({2, 2, 3}, at::kDouble), slots({2})};
  at::Tensor out = find_op("concat_and_cache_mla").call()(a);
  expect_values(out, {0, 0, 0, 0, 0, 0, 7, 8, 9, 0, 0, 0});
}

// One query picks KV row 1 ([2]); score 1 * 2 * scale 1 = 2 against the sink logit 0, whose share
// of the softmax is dropped: out = 2 * e^2 / (e^2 + 1).
TEST(KvAttentionOps, SparseAttentionDropsTheSinkShareAfterTheSoftmax) {
  Args a;
  a.t = {values({1}, {1, 1, 1, 1}), values({0, 2}, {1, 2, 1}), at::zeros({1}, at::kDouble),
         at::tensor({1}, at::kInt).reshape({1, 1, 1})};
  a.f = {1.0};
  at::Tensor out = find_op("sparse_attention").call()(a);
  const double e2 = std::exp(2.0);
  expect_values(out, {2 * e2 / (e2 + 1)});
}

// Context length 2 of max 3: the third position stays 0 although its key would score 15. Per
// position, sum over heads of relu(k . q_h) * w_h with q = [[1, 2], [-3, 1]], w = [1, 10].
TEST(KvAttentionOps, Bf16PagedMqaLogitsSumsReluScoresByHeadWeightWithinTheContext) {
  at::Tensor kv = at::zeros({1, 64, 1, 2}, at::kDouble);
  kv.index_put_({0, 0, 0}, values({1, 0}, {2}));
  kv.index_put_({0, 1, 0}, values({0, 1}, {2}));
  kv.index_put_({0, 2, 0}, values({5, 5}, {2}));
  Args a;
  a.t = {values({1, 2, -3, 1}, {1, 1, 2, 2}),
         kv,
         values({1, 10}, {1, 2}),
         at::tensor({2}, at::kInt).reshape({1, 1}),
         at::tensor({0}, at::kInt).reshape({1, 1}),
         at::zeros({2, 2}, at::kInt)};
  a.i = {3};
  at::Tensor out = find_op("bf16_paged_mqa_logits").call()(a);
  expect_values(out, {1, 2 * 1 + 1 * 10, 0});
}

// Cache length 2 of 4 padded rows: rows 2 and 3 (which would dominate) are masked. Scores
// k . q / sqrt(2): head 0 [sqrt 2, 0], head 1 [0, sqrt 2]; V is the first column, [2, 0].
TEST(KvAttentionOps, FlashMlaAttendsOnlyToEachSequencesCachedTokens) {
  Args a;
  a.t = {values({1, 0, 0, 1}, {1, 1, 2, 2}), at::zeros({1, 4}, at::kInt),
         values({2, 0, 0, 2, 100, 100, 100, 100}, {4, 1, 1, 2}), at::tensor({2}, at::kInt)};
  // max_seqlen_pad, block_size, b, s_q, h_q, h_kv, d, dv, causal
  a.i = {4, 64, 1, 1, 2, 1, 2, 1, 1};
  at::Tensor out = find_op("flash_mla").call()(a);
  const double e = std::exp(std::sqrt(2.0));
  expect_values(out, {2 * e / (e + 1), 2 / (e + 1)});
}

}  // namespace
}  // namespace caliber
