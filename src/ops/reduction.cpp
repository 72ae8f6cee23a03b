// Reductions and scans: FlagGems' UnaryReductionBenchmark (reduce along dim 1) and the
// GenericBenchmark2DOnly scans.
#include <ATen/core/Tensor.h>
#include <ATen/ops/count_nonzero.h>
#include <ATen/ops/cummax.h>
#include <ATen/ops/cummin.h>
#include <ATen/ops/linalg_vector_norm.h>
#include <ATen/ops/logcumsumexp.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/var_mean.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

using ops::Domain;

// UnaryReductionBenchmark yields (x, 1), or (x,) alone when x is 1-D (the op then reduces
// everything, which for one dim is the same as along dim 0).
SizeDetail reduction_detail(const Args& a) {
  SizeDetail d;
  d.arg(size_of(a.t[0]));
  if (a.t[0].dim() > 1) d.arg(PyValue::of(a.i[0]));
  return d;
}

OpDef reduction(const char* name, CallFn call, Domain domain = Domain::kNormal) {
  return OpDef(name)
      .detail(reduction_detail)
      .family(Family::kReduction)
      .shape_key("UnaryReductionBenchmark")
      .more_shapes(ops::reduction_more_shapes())
      .inputs(ops::tensor_and_dim(domain))
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(2);
}

OpDef scan(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kReduction)
      .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
      .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
      .more_shapes(ops::generic_more_shapes_2d())
      .inputs(ops::tensor_and_last_dim())
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(4);
}

}  // namespace

std::vector<OpDef> reduction_ops() {
  using A = Args;
  std::vector<OpDef> ops = {
      reduction("sum", [](A& a) { return a.t[0].sum(a.i[0]); }).aten({"aten::sum.dim_IntList"}),
      reduction("sum_all", [](A& a) { return a.t[0].sum(); }).aten({"aten::sum"}),
      reduction("mean", [](A& a) { return a.t[0].mean(a.i[0]); }).aten({"aten::mean.dim"}),
      reduction("amax", [](A& a) { return a.t[0].amax(a.i[0]); }).dtypes(ops::float_and_int()),
      reduction("amin", [](A& a) { return a.t[0].amin(a.i[0]); }).dtypes(ops::float_and_int()),
      // test_amin.py's amin_: a[0].copy_(torch.amin(x, dim, keepdim=True)), the minimum broadcast
      // back over x (no ATen amin_ exists). flag_gems.amin_ gets dim 0 where its test passes none
      // (1-D): the same minimum.
      reduction("amin_", [](A& a) { return a.t[0].copy_(a.t[0].amin(a.i[0], true)); })
          .inplace()
          .aten({"aten::amin", "aten::copy_"})
          .python_fn("amin_", {py_args::t(0), py_args::i(0)}),
      reduction("max", [](A& a) { return std::get<0>(a.t[0].max(a.i[0])); })
          .aten({"aten::max.dim"})
          .dtypes(ops::float_and_int()),
      reduction("min", [](A& a) { return std::get<0>(a.t[0].min(a.i[0])); })
          .aten({"aten::min.dim"})
          .dtypes(ops::float_and_int()),
      reduction("max_all", [](A& a) { return a.t[0].max(); }).aten({"aten::max"}),
      reduction("argmax", [](A& a) { return a.t[0].argmax(a.i[0]); }),
      reduction("argmin", [](A& a) { return a.t[0].argmin(a.i[0]); }),
      reduction(
          "prod", [](A& a) { return a.t[0].prod(a.i[0]); }, Domain::kPositive)
          .aten({"aten::prod.dim_int"}),
      reduction("all", [](A& a) { return a.t[0].all(a.i[0]); })
          .dtypes(ops::concat(kFloatDTypes, kBoolDTypes))
          .aten({"aten::all.dim"}),
      reduction("any", [](A& a) { return a.t[0].any(a.i[0]); })
          .dtypes(ops::concat(kFloatDTypes, kBoolDTypes))
          .aten({"aten::any.dim"}),
      reduction("std", [](A& a) { return a.t[0].std(at::IntArrayRef(a.i[0])); })
          .aten({"aten::std.correction"}),
      reduction("var", [](A& a) { return a.t[0].var(at::IntArrayRef(a.i[0])); })
          .aten({"aten::var.correction"}),
      reduction("var_mean", [](A& a) { return std::get<0>(at::var_mean(a.t[0], a.i[0])); })
          .aten({"aten::var_mean.correction"}),
      reduction("vector_norm", [](A& a) { return at::linalg_vector_norm(a.t[0], 2, a.i[0]); })
          .shape_key("GenericBenchmarkExcluse1D")
          .aten({"aten::linalg_vector_norm"}),
      reduction("logsumexp", [](A& a) { return at::logsumexp(a.t[0], a.i[0]); })
          .shape_key("GenericBenchmarkExcluse1D"),
      // at::count_nonzero(x, int?) is the default overload, which FlagGems overrides; ATen's own
      // kernel of it goes on to dim_IntList.
      reduction("count_nonzero",
                [](A& a) { return at::count_nonzero(a.t[0], std::optional<int64_t>(a.i[0])); })
          .aten({"aten::count_nonzero", "aten::count_nonzero.dim_IntList"}),
      reduction("sum_backward", [](A& a) { return a.t[0].sum(a.i[0]); })
          .backward()
          .aten({"aten::expand", "aten::sum.dim_IntList"}),
      scan("cumsum", [](A& a) { return a.t[0].cumsum(a.i[0]); }).dtypes(ops::float_and_int()),
      scan("cumsum_", [](A& a) { return a.t[0].cumsum_(a.i[0]); }).inplace(),
      scan("cumprod", [](A& a) { return a.t[0].cumprod(a.i[0]); }),
      scan("cummax", [](A& a) { return std::get<0>(at::cummax(a.t[0], a.i[0])); }),
      scan("cummin", [](A& a) { return std::get<0>(at::cummin(a.t[0], a.i[0])); }),
      scan("logcumsumexp", [](A& a) { return at::logcumsumexp(a.t[0], a.i[0]); }),
  };
  return ops;
}

}  // namespace caliber
