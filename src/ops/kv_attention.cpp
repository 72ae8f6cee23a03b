// Paged-KV and sparse attention marks FlagGems benchmarks against a torch reference of its own:
// vLLM's cache writes (reshape_and_cache, its flash layout, concat_and_cache_mla), FlashMLA's
// decode (flash_mla), DeepSeek's sparse attention with a sink and the bf16 paged MQA logits.
// The references walk tokens, sequences or KV blocks in Python, reading every slot, length and
// block id back with .item(); the baselines here are the same computation as one batched ATen
// composite (scatter by slot, attention masked to each sequence's length, logits gathered
// through the block table), so they run without host syncs and capture into a graph. The marks
// whose reference is a vLLM, DeepGEMM or FlashMLA kernel are in ops/dismiss.yaml.
#include <ATen/TensorIndexing.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/einsum.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/floor_divide.h>
#include <ATen/ops/full.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/remainder.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/zeros.h>

#include <cmath>
#include <limits>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

using at::indexing::None;
using at::indexing::Slice;

// float32 where the references call .float(), kept float64 for --verify's float64 reference.
at::ScalarType at_least_float(const at::Tensor& t) {
  return at::promote_types(t.scalar_type(), at::kFloat);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// random.sample(range(num_slots), num_tokens): distinct slots, int64.
at::Tensor distinct_slots(const BuildContext& c, int64_t num_slots, int64_t num_tokens) {
  return at::randperm(num_slots, c.options().dtype(at::kLong)).narrow(0, 0, num_tokens);
}

// torch.randn(num_tokens, 3, num_heads, head_size).unbind(1)[1:]: key and value, strided views.
std::vector<at::Tensor> unbound_key_value(const BuildContext& c, int64_t tokens, int64_t heads,
                                          int64_t head_size) {
  at::Tensor qkv = at::randn({tokens, 3, heads, head_size}, c.options());
  return {qkv.select(1, 1), qkv.select(1, 2)};
}

at::Tensor uniform(const BuildContext& c, at::IntArrayRef sizes, double bound) {
  return at::empty(sizes, c.options()).uniform_(-bound, bound);
}

// The tests' k_scale / v_scale: (x.amax() / 64).to(torch.float32).
at::Tensor kv_scale(const at::Tensor& x) { return (x.amax() / 64.0).to(at::kFloat); }

// ReshapeAndCacheBenchmark (num_tokens, num_heads, head_size, block_size, num_blocks): key,
// value, key_cache [blocks, heads, head_size / x, block_size, x] with x = 16 bytes / element,
// value_cache [blocks, heads, head_size, block_size], both ~ U(-scale, scale), slot_mapping, and
// k_scale, v_scale (amax / 64, float32 0-dim): kv_cache_dtype "auto" never reads them, but
// FlagGems' function takes them (python_fn); the baseline leaves them alone.
void reshape_and_cache_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], heads = d[1], head_size = d[2], block_size = d[3], blocks = d[4];
  const int64_t x = 16 / static_cast<int64_t>(c.options().dtype().itemsize());
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_size));
  auto kv = unbound_key_value(c, tokens, heads, head_size);
  a.t = {kv[0],
         kv[1],
         uniform(c, {blocks, heads, head_size / x, block_size, x}, scale),
         uniform(c, {blocks, heads, head_size, block_size}, scale),
         distinct_slots(c, block_size * blocks, tokens),
         kv_scale(kv[0]),
         kv_scale(kv[1])};
}

std::string reshape_and_cache_unsupported(const Shape& s) {
  if (!s.is_flat() || s.items.size() != 5) return "";
  // The widest element (float32) packs x = 4 per 16 bytes, float16 8: head_size must divide.
  if (s.items[2].integer % 8 != 0) return "head_size not a multiple of 8 (16-byte x packing)";
  return "";
}

// torch_reshape_and_cache_ref without its per-token loop: every token's key lands at
// key_cache[slot // block_size, :, :, slot % block_size, :], its value likewise.
at::Tensor reshape_and_cache(Args& a) {
  at::Tensor& key_cache = a.t[2];
  at::Tensor& value_cache = a.t[3];
  const int64_t block_size = key_cache.size(3);
  at::Tensor block = at::floor_divide(a.t[4], block_size);
  at::Tensor offset = at::remainder(a.t[4], block_size);
  at::Tensor key =
      a.t[0].reshape({a.t[4].numel(), key_cache.size(1), key_cache.size(2), key_cache.size(4)});
  key_cache.index_put_({block, Slice(), Slice(), offset, Slice()}, key);
  value_cache.index_put_({block, Slice(), Slice(), offset}, a.t[1]);
  // Both caches are written and timed; the key cache is what is verified.
  return key_cache;
}

// ReshapeAndCacheFlashBenchmark: the same key, value and slots; key and value caches
// [blocks, block_size, heads, head_size], contiguous copies of one [blocks, 2, ...] tensor's
// halves, ~ U(-scale, scale), and the unread k_scale, v_scale.
void reshape_and_cache_flash_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t tokens = d[0], heads = d[1], head_size = d[2], block_size = d[3], blocks = d[4];
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_size));
  auto kv = unbound_key_value(c, tokens, heads, head_size);
  at::Tensor cache = uniform(c, {blocks, 2, block_size, heads, head_size}, scale);
  a.t = {kv[0],
         kv[1],
         cache.select(1, 0).contiguous(),
         cache.select(1, 1).contiguous(),
         distinct_slots(c, block_size * blocks, tokens),
         kv_scale(kv[0]),
         kv_scale(kv[1])};
}

// torch_reshape_and_cache_flash_ref without its loop: cache[slot // bs, slot % bs] = token.
at::Tensor reshape_and_cache_flash(Args& a) {
  const int64_t block_size = a.t[2].size(1);
  at::Tensor block = at::floor_divide(a.t[4], block_size);
  at::Tensor offset = at::remainder(a.t[4], block_size);
  a.t[2].index_put_({block, offset}, a.t[0]);
  a.t[3].index_put_({block, offset}, a.t[1]);
  return a.t[2];
}

// ConcatAndCacheMLABenchmark (kv_lora_rank, qk_rope_head_dim, num_tokens, block_size,
// num_blocks): kv_c [tokens, rank], k_pe [tokens, rope] ~ N(0, 1), kv_cache zeros
// [blocks, block_size, rank + rope], slot_mapping, and scale 0.1 (float32 0-dim), which the
// "auto" cache dtype never reads but FlagGems' function takes.
void concat_and_cache_mla_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t rank = d[0], rope = d[1], tokens = d[2], block_size = d[3], blocks = d[4];
  a.t = {ops::random(c, {tokens, rank}), ops::random(c, {tokens, rope}),
         at::zeros({blocks, block_size, rank + rope}, c.options()),
         distinct_slots(c, block_size * blocks, tokens),
         at::scalar_tensor(0.1, c.options().dtype(at::kFloat))};
}

// torch_concat_and_cache_mla_ref without its loop: a zeroed cache-shaped buffer takes
// [kv_c | k_pe] at each slot, then replaces the whole cache ("auto": no fp8 conversion).
at::Tensor concat_and_cache_mla(Args& a) {
  const int64_t rank = a.t[0].size(1), block_size = a.t[2].size(1);
  at::Tensor block = at::floor_divide(a.t[3], block_size);
  at::Tensor offset = at::remainder(a.t[3], block_size);
  at::Tensor temp = at::zeros(a.t[2].sizes(), a.t[2].options().dtype(a.t[0].scalar_type()));
  temp.index_put_({block, offset, Slice(None, rank)}, a.t[0]);
  temp.index_put_({block, offset, Slice(rank, None)}, a.t[1]);
  return a.t[2].copy_(temp);
}

OpDef cache_write(const std::string& name, const std::string& key, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kIndex)
      .shape_keys({key, "GenericBenchmark"})
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops([](const Args& a, const at::Tensor&) {
        return static_cast<double>(a.t[0].numel() + a.t[1].numel());
      });
}

// test_flash_mla.py, FlashMLABenchmark (seqlen): batch 128 of one query token, 128 query heads
// on one KV head, d 576 (the first 512 are V), cache_seqlens seqlen + 2i, each sequence in its
// own max_seqlen_pad = ceil(max / 256) * 256 rows of blocked_k (block_table is an arange).
constexpr int64_t kMlaBatch = 128, kMlaQueryLen = 1, kMlaQueryHeads = 128, kMlaKvHeads = 1,
                  kMlaHeadDim = 576, kMlaValueDim = 512, kMlaBlockSize = 64;

void flash_mla_inputs(const BuildContext& c, Args& a) {
  const int64_t seqlen = c.dims()[0];
  const int64_t max_seqlen = seqlen + 2 * (kMlaBatch - 1);
  const int64_t max_seqlen_pad = ceil_div(max_seqlen, 256) * 256;
  auto i32 = c.options().dtype(at::kInt);
  at::Tensor cache_seqlens = at::arange(kMlaBatch, i32) * 2 + seqlen;
  at::Tensor block_table =
      at::arange(kMlaBatch * max_seqlen_pad / kMlaBlockSize, i32).view({kMlaBatch, -1});
  a.t = {ops::random(c, {kMlaBatch, kMlaQueryLen, kMlaQueryHeads, kMlaHeadDim}), block_table,
         ops::random(c, {block_table.numel(), kMlaBlockSize, kMlaKvHeads, kMlaHeadDim}),
         cache_seqlens};
  // max_seqlen_pad, block_size, b, s_q, h_q, h_kv, d, dv, causal, as ref_mla takes them.
  a.i = {max_seqlen_pad, kMlaBlockSize, kMlaBatch, kMlaQueryLen, kMlaQueryHeads, kMlaKvHeads,
         kMlaHeadDim,    kMlaValueDim,  1};
}

// ref_mla: for each sequence, float32 attention of its query heads over its first
// cache_seqlens[i] cached tokens, the KV head repeated to the query heads, scaled by
// 1 / sqrt(d), causal with the bias tril(s_k - s_q); out [b, s_q, h_q, dv] (lse is computed
// too). Here all sequences at once: each reads its padded rows, masked beyond its length, and
// the query heads are grouped on their KV head rather than the KV head repeated.
at::Tensor flash_mla(Args& a) {
  const int64_t pad = a.i[0], b = a.i[2], s_q = a.i[3], h_q = a.i[4], h_kv = a.i[5], d = a.i[6],
                dv = a.i[7];
  const bool causal = a.i[8] != 0;
  const auto acc = at_least_float(a.t[0]);
  const int64_t group = h_q / h_kv;
  // [b, s_q, h_q, d] -> [b, h_kv, group * s_q, d]: query head j reads KV head j / group.
  at::Tensor q = a.t[0].to(acc).transpose(1, 2).reshape({b, h_kv, group * s_q, d});
  at::Tensor k = a.t[2].view({b, pad, h_kv, d}).to(acc).transpose(1, 2);  // [b, h_kv, pad, d]
  at::Tensor v = k.narrow(-1, 0, dv);
  at::Tensor scores = at::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(d));
  scores = scores.view({b, h_q, s_q, pad});
  auto i64 = a.t[3].options().dtype(at::kLong);
  at::Tensor pos = at::arange(pad, i64).view({1, 1, pad});
  at::Tensor len = a.t[3].to(at::kLong).view({b, 1, 1});
  at::Tensor keep = pos < len;  // [b, 1, pad]
  if (causal) keep = keep & (pos <= len - s_q + at::arange(s_q, i64).view({1, s_q, 1}));
  scores.masked_fill_(keep.logical_not().unsqueeze(1), -std::numeric_limits<double>::infinity());
  at::Tensor lse = at::logsumexp(scores, -1);
  at::Tensor attn = at::softmax(scores, -1, acc).view({b, h_kv, group * s_q, pad});
  (void)lse;
  return at::matmul(attn, v).view({b, h_q, s_q, dv}).transpose(1, 2);
}

// test_sparse_attention.py's SparseAttentionBenchmark (B, M, KV_LEN, TOPK, H, D): q [B, M, H, D],
// kv [B, KV_LEN, D] ~ N(0, 1), attn_sink zeros [H] float32, topk_idxs [B, M, TOPK] int32 in
// [0, KV_LEN), softmax_scale 1 / sqrt(D).
void sparse_attention_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t batch = d[0], seq = d[1], kv_len = d[2], topk = d[3], heads = d[4], dim = d[5];
  a.t = {ops::random(c, {batch, seq, heads, dim}), ops::random(c, {batch, kv_len, dim}),
         at::zeros({heads}, c.options().dtype(at::kFloat)),
         at::randint(0, kv_len, {batch, seq, topk}, c.options().dtype(at::kInt))};
  a.f = {1.0 / std::sqrt(static_cast<double>(dim))};
}

// torch_sparse_attention, call for call: gather each query's top-k KV rows, float32 scores,
// a sink logit per head appended before the softmax and dropped after it.
at::Tensor sparse_attention(Args& a) {
  const at::Tensor &q = a.t[0], &kv = a.t[1], &sink = a.t[2], &idx = a.t[3];
  const int64_t batch = q.size(0), seq = q.size(1), heads = q.size(2), dim = q.size(3);
  const int64_t topk = idx.size(-1);
  const auto acc = at_least_float(q);
  at::Tensor kv_expanded = kv.unsqueeze(1).expand({batch, seq, -1, dim});
  at::Tensor idx_expanded = idx.unsqueeze(-1).expand({batch, seq, topk, dim}).to(at::kLong);
  at::Tensor gathered = at::gather(kv_expanded, 2, idx_expanded);
  at::Tensor scores = at::einsum("bmhd,bmtd->bmht", {q.to(acc), gathered.to(acc)}) * a.f[0];
  at::Tensor sinks = sink.view({1, 1, heads, 1}).expand({batch, seq, heads, 1});
  at::Tensor attn = at::softmax(at::cat({scores, sinks}, -1), -1);
  at::Tensor out = at::einsum(
      "bmht,bmtd->bmhd", {attn.index({at::indexing::Ellipsis, Slice(None, -1)}), gathered.to(acc)});
  return out.to(q.scalar_type());
}

// test_bf16_paged_mqa_logits.py (batch_size, next_n, num_heads, context_len): q
// [B, next_n, H, 128] bf16, kv_cache [B * blocks + 10, 64, 1, 128] bf16, weights |N(0, 1)|
// [B * next_n, H] float32, context_lens [B, next_n] all context_len, block_table[b, i] =
// b * blocks + i, the dummy schedule_metadata zeros(2, 2) of its PyTorch path, max_context_len.
constexpr int64_t kMqaHeadDim = 128, kMqaBlockSize = 64;

void paged_mqa_logits_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  const int64_t batch = d[0], next_n = d[1], heads = d[2], ctx_len = d[3];
  const int64_t blocks = ceil_div(ctx_len, kMqaBlockSize);
  auto i32 = c.options().dtype(at::kInt);
  a.t = {ops::random(c, {batch, next_n, heads, kMqaHeadDim}),
         ops::random(c, {batch * blocks + 10, kMqaBlockSize, 1, kMqaHeadDim}),
         at::randn({batch * next_n, heads}, c.options().dtype(at::kFloat)).abs(),
         at::full({batch, next_n}, ctx_len, i32),
         at::arange(batch * blocks, i32).view({batch, -1}),
         at::zeros({2, 2}, i32)};
  a.i = {ctx_len};
}

// _pytorch_ref (the baseline without DeepGEMM): logits[b * next_n + n, pos] = sum over heads of
// relu(k[pos] . q[b, n, h]) * weights[row, h] in float32 for pos < context_lens[b, n], zero
// beyond. Its loop over rows and KV blocks becomes one gather through the block table.
at::Tensor paged_mqa_logits(Args& a) {
  const at::Tensor &q = a.t[0], &kv_cache = a.t[1], &weights = a.t[2], &lens = a.t[3],
                   &table = a.t[4];
  const int64_t batch = q.size(0), next_n = q.size(1), heads = q.size(2), dim = q.size(3);
  const int64_t max_len = a.i[0];
  const auto acc = at_least_float(q);
  at::Tensor k = kv_cache.index_select(0, table.flatten())
                     .view({batch, -1, dim})
                     .narrow(1, 0, max_len)
                     .to(acc);  // [B, T, D]
  at::Tensor scores = at::relu(at::matmul(q.to(acc).view({batch, next_n * heads, dim}),
                                          k.transpose(1, 2)));  // [B, next_n * H, T]
  at::Tensor logits = (scores.view({batch, next_n, heads, max_len}) *
                       weights.to(acc).view({batch, next_n, heads, 1}))
                          .sum(2);  // [B, next_n, T]
  at::Tensor pos = at::arange(max_len, lens.options().dtype(at::kLong));
  logits.masked_fill_(pos.view({1, 1, -1}) >= lens.unsqueeze(-1), 0.0);
  return logits.view({batch * next_n, max_len});
}

// FlagGems' Size Detail: the first `tensors` inputs, then the cache writers' keyword arguments
// (kv_cache_dtype "auto" and the scales, 0-dim tensors) after `scales`.
DetailFn cache_write_detail(size_t tensors, std::vector<std::string> scales) {
  return [tensors, scales](const Args& a) {
    SizeDetail d;
    for (size_t i = 0; i < tensors; ++i) d.arg(size_of(a.t[i]));
    d.kwarg("kv_cache_dtype", PyValue::str("auto"));
    for (const auto& name : scales) d.kwarg(name, PyValue::size({}));
    return d;
  };
}

// flash_mla_kwargs yields q, block_table, blocked_k, max_seqlen_pad, block_size, b, s_q,
// cache_seqlens, h_q, h_kv, d, dv, causal.
SizeDetail flash_mla_detail(const Args& a) {
  SizeDetail d;
  for (size_t i = 0; i < 3; ++i) d.arg(size_of(a.t[i]));
  for (size_t i = 0; i < 4; ++i) d.arg(PyValue::of(a.i[i]));
  d.arg(size_of(a.t[3]));
  for (size_t i = 4; i < 8; ++i) d.arg(PyValue::of(a.i[i]));
  d.arg(PyValue::flag(a.i[8] != 0));
  return d;
}

}  // namespace

std::vector<OpDef> kv_attention_ops() {
  using py_args::f;
  using py_args::flag;
  using py_args::i;
  using py_args::kw;
  using py_args::t;
  const std::vector<std::string> kSlotAten = {"aten::floor_divide", "aten::remainder",
                                              "aten::index_put_"};
  std::vector<std::string> mla_cache_aten = {"aten::zeros", "aten::copy_"};
  mla_cache_aten.insert(mla_cache_aten.begin(), kSlotAten.begin(), kSlotAten.end());
  return {
      cache_write("reshape_and_cache", "ReshapeAndCacheBenchmark", reshape_and_cache_inputs,
                  reshape_and_cache)
          .shape_desc("num_tokens, num_heads, head_size, block_size, num_blocks")
          .skip_shapes(reshape_and_cache_unsupported)
          .detail(cache_write_detail(5, {"k_scale", "v_scale"}))
          .aten(kSlotAten)
          // Returns None: key_cache, written in place, is compared.
          .python_fn("reshape_and_cache", {t(0), t(1), t(2), t(3), t(4), "auto", t(5), t(6)}),
      cache_write("reshape_and_cache_flash", "ReshapeAndCacheFlashBenchmark",
                  reshape_and_cache_flash_inputs, reshape_and_cache_flash)
          .shape_desc("num_tokens, num_heads, head_size, block_size, num_blocks")
          .detail(cache_write_detail(5, {"k_scale", "v_scale"}))
          .aten(kSlotAten)
          .python_fn("reshape_and_cache_flash", {t(0), t(1), t(2), t(3), t(4), "auto", t(5), t(6)}),
      cache_write("concat_and_cache_mla", "ConcatAndCacheMLABenchmark", concat_and_cache_mla_inputs,
                  concat_and_cache_mla)
          .shape_desc("kv_lora_rank, qk_rope_head_dim, num_tokens, block_size, num_blocks")
          .detail(cache_write_detail(4, {"scale"}))
          .aten(mla_cache_aten)
          .python_fn("concat_and_cache_mla", {t(0), t(1), t(2), t(3), "auto", t(4)}),
      OpDef("flash_mla")
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_keys({"FlashMLABenchmark", "GenericBenchmark"})
          .shape_desc("seqlen")
          .inputs(flash_mla_inputs)
          .call(flash_mla)
          .detail(flash_mla_detail)
          .flops([](const Args& a, const at::Tensor&) {
            // QK^T over d and PV over dv for every cached token of every query head.
            const double tokens = a.t[3].to(at::kDouble).sum().item<double>();
            return 2.0 * tokens * a.i[4] * a.i[3] * (a.i[6] + a.i[7]);
          })
          .tolerance(4)
          .aten({"aten::_to_copy", "aten::matmul", "aten::div.Scalar", "aten::masked_fill_",
                 "aten::logsumexp", "aten::_softmax"})
          .python_fn("flash_mla", {t(0), t(1), t(2), i(0), i(1), i(2), i(3), t(3), i(4), i(5), i(6),
                                   i(7), flag(8)}),
      // FlagGems' op_name in both tests; the mark of test_sparse_attention.py is
      // sparse_attn_triton. test_blas_perf_parallel.py's sparse_attention mark builds the same
      // inputs on the same list and times FlagGems' MThreads Triton kernel as its baseline.
      OpDef("sparse_attention")
          .aliases({"sparse_attn_triton"})
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_keys({"SparseAttentionBenchmark", "GenericBenchmark"})
          .shape_desc("B, M, KV_LEN, TOPK, H, D")
          .inputs(sparse_attention_inputs)
          .call(sparse_attention)
          .detail([](const Args& a) {
            SizeDetail d;
            for (const auto& t : a.t) d.arg(size_of(t));
            return d.arg(PyValue::real_number(a.f[0]));
          })
          .flops([](const Args& a, const at::Tensor&) {
            // ParallelSparseAttentionBenchmark.get_tflops: B * M * TOPK * 4 * H * D.
            const at::Tensor& q = a.t[0];
            return 4.0 * q.size(0) * q.size(1) * a.t[3].size(-1) * q.size(2) * q.size(3);
          })
          .tolerance(2)
          .aten({"aten::gather", "aten::_to_copy", "aten::einsum", "aten::mul.Tensor", "aten::cat",
                 "aten::_softmax"})
          .python_fn("sparse_attn_triton", {t(0), t(1), t(2), t(3), f(0)}),
      OpDef("bf16_paged_mqa_logits")
          .family(Family::kAttention)
          .dtypes({DType::kBFloat16})
          .shape_keys({"Bf16PagedMqaLogitsBenchmark", "GenericBenchmark"})
          .shape_desc("batch_size, next_n, num_heads, context_len")
          .inputs(paged_mqa_logits_inputs)
          .call(paged_mqa_logits)
          .detail([](const Args& a) {
            SizeDetail d;
            for (const auto& t : a.t) d.arg(size_of(t));
            return d.arg(PyValue::of(a.i[0])).kwarg("clean_logits", PyValue::flag(false));
          })
          .flops([](const Args& a, const at::Tensor& out) {
            return 2.0 * static_cast<double>(out.numel()) * a.t[0].size(2) * a.t[0].size(3);
          })
          .tolerance(4)
          .aten({"aten::index_select", "aten::_to_copy", "aten::matmul", "aten::relu",
                 "aten::mul.Tensor", "aten::sum.dim_IntList", "aten::masked_fill_"})
          .python_fn("bf16_paged_mqa_logits",
                     {t(0), t(1), t(2), t(3), t(4), t(5), i(0), kw("clean_logits", false)}),
  };
}

}  // namespace caliber
