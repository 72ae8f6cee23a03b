// Normalisation by its native ATen operators (native_layer_norm, _native_batch_norm_legit and
// its no_stats / out overloads) on NormBenchmark's (N, C, *), with FlagGems' input_fn arguments:
// weight and bias of C (of shape[1:] for layer norm), zero mean / unit variance running stats,
// training, momentum 0.1, eps 1e-5.
#include <ATen/core/List.h>
#include <ATen/ops/cudnn_batch_norm.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/native_layer_norm.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>
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

// The dtype of the statistics native_layer_norm saves on the case's device. FlagGems passes
// float32, what the CUDA forward saves for every input dtype; the host's forward saves the
// input's dtype and its backward takes no other. Where no forward runs (the meta device, which
// has no kernel for it), FlagGems' float32.
at::ScalarType saved_stats_dtype(const BuildContext& c) {
  try {
    at::Tensor probe = at::zeros({1, 1}, c.options());
    return std::get<1>(at::native_layer_norm(probe, {1}, {}, {}, 1e-5)).scalar_type();
  } catch (const c10::Error&) {
    return at::kFloat;
  }
}

}  // namespace

std::vector<OpDef> norm_variant_ops() {
  const ops::ArgValue kTraining{"training", true};
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  add(norm([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        std::vector<int64_t> normalized(d.begin() + 1, d.end());
        a.t = {ops::random(c, d), ops::random(c, normalized), ops::random(c, normalized)};
        a.lists = {normalized};
        a.f = {1e-5};
      }),
      {{"native_layer_norm", "native_layer_norm"}});
  // FlagGems' input_fn_backward: grad_out, x, normalized_shape, mean and rstd of N values,
  // weight, bias, output_mask [True, True, True].
  add(norm([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        std::vector<int64_t> normalized(d.begin() + 1, d.end());
        auto stats = c.options().dtype(saved_stats_dtype(c));
        a.t = {ops::random(c, d),        ops::random(c, d),          at::randn({d[0]}, stats),
               at::randn({d[0]}, stats), ops::random(c, normalized), ops::random(c, normalized)};
        a.lists = {normalized};
      }),
      {{"layer_norm_backward",
        "native_layer_norm_backward",
        ops::kBase,
        {ops::yielded("output_mask", c10::List<bool>({true, true, true}))}}});
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
  // FlagGems' batch-norm entry points on NormBenchmark's shapes and its extra ones; the two
  // evaluation-mode marks time F.batch_norm(training=False), i.e. aten::batch_norm.
  auto batch_norm_entry = [](const std::string& name) {
    return norm(batch_norm(true, false))(name).more_shapes(
        {{16, 16, 64}, {16, 16, 1024}, {16, 16, 4098}, {1, 8, 4, 4}, {16, 8, 128, 128}});
  };
  const ops::ArgValue kCudnn{"cudnn_enabled", true};
  add(batch_norm_entry,
      {
          {"_batch_norm_with_update_functional", "_batch_norm_with_update_functional"},
          {"native_batch_norm_legit_functional",
           "_native_batch_norm_legit_functional",
           ops::kBase,
           {kTraining}},
          {"batch_norm_impl_index", "_batch_norm_impl_index", ops::kBase, {kTraining, kCudnn}},
          {"batch_norm_no_update", "batch_norm", ops::kBase, {{"training", false}, kCudnn}},
          {"native_batch_norm_legit_no_training",
           "batch_norm",
           ops::kBase,
           {{"training", false}, kCudnn}},
      });
  out[out.size() - 5].aliases({"batch_norm_with_update_functional"});
  // Weight normalisation over dim 0 on GenericBenchmarkExcluse1D's shapes: v and g of
  // (M, 1, ...); the backward takes the gradient, v, and g and norms of M.
  auto weight_norm = [](BuildFn inputs, std::vector<DType> dtypes) -> ops::Prototype {
    return [=](const std::string& name) {
      return norm(inputs)(name)
          .dtypes(dtypes)
          .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
          .shape_desc("")
          .more_shapes(ops::generic_more_shapes_no_1d());
    };
  };
  add(weight_norm(
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            std::vector<int64_t> g(d.size(), 1);
            g[0] = d[0];
            a.t = {ops::random(c, d), ops::random(c, g)};
            a.i = {0};
          },
          kFloatDTypes),
      {{"weight_norm_interface", "_weight_norm_interface"}});
  add(weight_norm(
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, d), ops::random(c, d), ops::random(c, {d[0]}),
                   ops::random(c, {d[0]}, ops::Domain::kPositive)};
            a.i = {0};
          },
          {DType::kFloat32}),
      {{"weight_norm_interface_backward", "_weight_norm_interface_backward"}});
  // Batch-norm backward kernels on the batch-norm entry shapes, with FlagGems' inputs: x and a
  // gradient of its shape, weight of C, zero mean / unit variance running stats, float32
  // save_mean ~ N(0, 1) and save_var |N(0, 1)| + 0.1, eps 1e-5, every gradient asked for.
  auto stats_backward = [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    const int64_t channels = d[1];
    a.t = {ops::random(c, d),
           ops::random(c, d),
           ops::random(c, {channels}),
           at::zeros({channels}, c.options()),
           at::ones({channels}, c.options()),
           ops::random_as(c, {channels}, at::kFloat),
           ops::random_as(c, {channels}, at::kFloat).abs_().add_(0.1)};
  };
  const ops::ArgValue kEps{"eps", 1e-5};
  // _batch_norm_impl_index_backward(0, x, grad, ..., train, eps, [True] * 3, empty uint8): the
  // native implementation (index 0), as FlagGems exercises it.
  add(
      [=](const std::string& name) {
        return batch_norm_entry(name).inputs([=](const BuildContext& c, Args& a) {
          stats_backward(c, a);
          a.i = {0};
          a.t.push_back(at::empty({0}, c.options().dtype(at::kByte)));
          a.f = {};
        });
      },
      {{"batch_norm_impl_index_backward",
        "_batch_norm_impl_index_backward",
        ops::kBase,
        {{"train", true}, kEps, {"output_mask", c10::List<bool>({true, true, true})}}}});
  // miopen_batch_norm_backward(x, grad, weight, running stats, save stats, eps): ROCm's MIOpen
  // kernel (ops/dismiss.yaml: none on CPU, and CUDA builds lack MIOpen).
  add(
      [=](const std::string& name) {
        return batch_norm_entry(name).inputs([=](const BuildContext& c, Args& a) {
          stats_backward(c, a);
          a.f = {1e-5};
        });
      },
      {{"miopen_batch_norm_backward", "miopen_batch_norm_backward"}});
  // cudnn_batch_norm_backward(x, grad, weight, None, None, save_mean, save_var, eps, reserve)
  // of cudnn_batch_norm's training forward, float32 (ops/dismiss.yaml: a CUDA kernel only).
  // FlagGems' forward call passes (training, 1e-5, False) as (training, momentum, epsilon).
  add(
      [=](const std::string& name) {
        return batch_norm_entry(name)
            .dtypes({DType::kFloat32})
            .inputs([](const BuildContext& c, Args& a) {
              auto d = c.dims();
              const int64_t channels = d[1];
              at::Tensor x = ops::random(c, d), weight = ops::random(c, {channels});
              auto [y, save_mean, save_var, reserve] = at::cudnn_batch_norm(
                  x, weight, ops::random(c, {channels}), {}, {}, true, 1e-5, 0.0);
              a.t = {x, ops::random(c, d), weight, save_mean, save_var, reserve};
              a.f = {1e-5};
            });
      },
      {{"cudnn_batch_norm_backward",
        "cudnn_batch_norm_backward",
        ops::kBase,
        {{"running_mean", c10::IValue()}, {"running_var", c10::IValue()}}}});
  // _fused_rms_norm(x [M, N], [N], weight [N]) and its backward (grad, x, [N], float32 rstd of
  // x, weight, [True, True]) on GenericBenchmark2DOnly's shapes (the backward: ops/dismiss.yaml,
  // a CUDA kernel only).
  auto rms = [](bool backward) -> ops::Prototype {
    return [=](const std::string& name) {
      return norm([=](const BuildContext& c, Args& a) {
               auto d = c.dims();
               at::Tensor x = ops::random(c, d), weight = ops::random(c, {d[1]});
               a.lists = {{d[1]}};
               if (!backward) {
                 a.t = {x, weight};
                 return;
               }
               at::Tensor rstd = x.to(at::kFloat).pow(2).mean(-1).add(1e-5).rsqrt();
               a.t = {ops::random(c, d), x, rstd, weight};
             })(name)
          .shape_keys({"GenericBenchmark2DOnly"})
          .shape_desc("M, N");
    };
  };
  add(rms(false), {{"fused_rms_norm", "_fused_rms_norm"}});
  add(rms(true), {{"fused_rms_norm_backward",
                   "_fused_rms_norm_backward",
                   ops::kBase,
                   {{"output_mask", c10::List<bool>({true, true})}}}});
  return out;
}

}  // namespace caliber
