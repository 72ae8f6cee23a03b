// Construction and fill: tensors made from a shape (FlagGems' GenericBenchmark shapes).
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/empty_permuted.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/full.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/linspace.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <fmt/format.h>

#include "ops/builders.h"
#include "ops/families.h"

namespace caliber {
namespace {

void sizes_only(const BuildContext& c, Args& a) { a.lists = {c.dims()}; }

int64_t numel_of(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

OpDef construct(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kConstruct)
      .shape_key("GenericBenchmark")
      .more_shapes(ops::generic_more_shapes())
      .inputs(std::move(inputs))
      .call(std::move(call))
      .dtypes(ops::concat(kFloatDTypes, kIntDTypes));
}

// Uninitialised memory has no reference; the shape is what can be checked.
std::string any_values(const Args&, const at::Tensor& out) {
  return out.defined() ? "" : "no output";
}

// FlagGems' benchmark/test_eye.py gives no input when shape[0] >= 819200: the shared list's
// [1073741824] would be an n x n matrix of 2^60 elements (CUDA out of memory on an H200).
std::string eye_beyond_flaggems(const Shape& shape) {
  if (!shape.is_flat()) return "";  // the builder reports a nested shape
  int64_t n = shape.dims("eye").front();
  if (n < 819200) return "";
  return fmt::format("eye of {} rows (FlagGems' test_eye.py skips shape[0] >= 819200)", n);
}

}  // namespace

std::vector<OpDef> construct_ops() {
  using A = Args;
  const BuildFn one = ops::tensors(1);
  std::vector<OpDef> ops = {
      construct("zeros", sizes_only, [](A& a) { return at::zeros(a.lists[0], a.options); }),
      construct("ones", sizes_only, [](A& a) { return at::ones(a.lists[0], a.options); }),
      construct("full", sizes_only, [](A& a) { return at::full(a.lists[0], 3, a.options); }),
      construct("empty", sizes_only, [](A& a) { return at::empty(a.lists[0], a.options); })
          .check(any_values)
          .aten({"aten::empty.memory_format"}),
      // empty_permuted(shape, reversed dims): FlagGems' non-contiguous physical layout.
      construct("empty_permuted", sizes_only,
                [](A& a) {
                  std::vector<int64_t> layout(a.lists[0].size());
                  for (size_t k = 0; k < layout.size(); ++k) {
                    layout[k] = static_cast<int64_t>(layout.size() - 1 - k);
                  }
                  return at::empty_permuted(a.lists[0], layout, a.options);
                })
          .check(any_values)
          .dtypes(kFloatDTypes),
      construct("zeros_like", one, [](A& a) { return at::zeros_like(a.t[0]); }),
      construct("ones_like", one, [](A& a) { return at::ones_like(a.t[0]); }),
      construct("full_like", one, [](A& a) { return at::full_like(a.t[0], 3); }),
      construct("empty_like", one, [](A& a) { return at::empty_like(a.t[0]); }).check(any_values),
      construct("fill_", one, [](A& a) { return a.t[0].fill_(3); })
          .inplace()
          .aten({"aten::fill_.Scalar"}),
      construct("zero_", one, [](A& a) { return a.t[0].zero_(); }).inplace(),
      construct("arange", sizes_only,
                [](A& a) { return at::arange(numel_of(a.lists[0]), a.options); })
          .aten({"aten::arange.start_step", "aten::arange.start_out"})
          .tolerance(4),
      construct("linspace", sizes_only,
                [](A& a) { return at::linspace(0, 1, numel_of(a.lists[0]), a.options); })
          .dtypes(kFloatDTypes),
      construct("eye", sizes_only,
                [](A& a) { return at::eye(a.lists[0][0], a.lists[0].back(), a.options); })
          .skip_shapes(eye_beyond_flaggems)
          .aten({"aten::eye.m"})
          .aliases({"eye_m"}),
  };
  return ops;
}

}  // namespace caliber
