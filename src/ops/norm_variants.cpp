// Normalisation by its native ATen operators (native_layer_norm, _native_batch_norm_legit and
// its no_stats / out overloads) on NormBenchmark's (N, C, *), with FlagGems' input_fn arguments:
// weight and bias of C (of shape[1:] for layer norm), zero mean / unit variance running stats,
// training, momentum 0.1, eps 1e-5.
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

ops::Prototype norm(BuildFn inputs) {
  return [=](const std::string& name) {
    // float32 first: the CPU kernel's half stats differ from CUDA's (ops/dismiss.yaml).
    return OpDef(name)
        .dtypes({DType::kFloat32, DType::kFloat16, DType::kBFloat16})
        .family(Family::kNorm)
        .shape_key("NormBenchmark")
        .shape_desc("N, C, *")
        .inputs(inputs)
        .flops(ops::input_numel)
        .tolerance(4);
  };
}

// input, weight, bias; then running mean and var when `stats`; then out, save_mean and
// save_invstd (float32 for half types) when `outs`.
BuildFn batch_norm(bool stats, bool outs) {
  return [=](const BuildContext& c, Args& a) {
    auto d = c.dims();
    const int64_t channels = d[1];
    a.t = {ops::random(c, d), ops::random(c, {channels}), ops::random(c, {channels})};
    if (stats) {
      a.t.push_back(at::zeros({channels}, c.options()));
      a.t.push_back(at::ones({channels}, c.options()));
    }
    if (outs) {
      const bool half = c.dtype == DType::kFloat16 || c.dtype == DType::kBFloat16;
      auto stat_options = half ? c.options().dtype(at::kFloat) : c.options();
      a.t.push_back(at::empty_like(a.t[0]));
      a.t.push_back(at::empty({channels}, stat_options));
      a.t.push_back(at::empty({channels}, stat_options));
    }
    a.f = {0.1, 1e-5};
  };
}

}  // namespace

std::vector<OpDef> norm_variant_ops() {
  const ops::ArgValue kTraining{"training", true};
  std::vector<OpDef> out;
  auto add = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(std::move(op));
  };
  add(norm([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        std::vector<int64_t> normalized(d.begin() + 1, d.end());
        a.t = {ops::random(c, d), ops::random(c, normalized), ops::random(c, normalized)};
        a.lists = {normalized};
        a.f = {1e-5};
      }),
      {{"native_layer_norm", "native_layer_norm"}});
  add(norm(batch_norm(true, false)),
      {{"native_batch_norm_legit", "_native_batch_norm_legit", ops::kBase, {kTraining}}});
  add(norm(batch_norm(false, false)), {{"native_batch_norm_legit_no_stats",
                                        "_native_batch_norm_legit.no_stats",
                                        ops::kBase,
                                        {kTraining}}});
  add(norm(batch_norm(true, true)),
      {{"native_batch_norm_legit_out", "_native_batch_norm_legit.out", ops::kBase, {kTraining}}});
  add(norm(batch_norm(false, true)), {{"native_batch_norm_legit_no_stats_out",
                                       "_native_batch_norm_legit.no_stats_out",
                                       ops::kBase,
                                       {kTraining}}});
  return out;
}

}  // namespace caliber
