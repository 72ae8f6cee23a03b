// Softmax family: reduce-then-normalise along one dim.
#include <ATen/core/Tensor.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/softmax.h>

#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"

namespace caliber {
namespace {

// test_softmax.py yields (x, 1), or (x,) alone for 1-D x (softmax over its one dim).
SizeDetail dim_unless_1d(const Args& a) {
  SizeDetail d;
  d.arg(size_of(a.t[0]));
  if (a.t[0].dim() > 1) d.arg(PyValue::of(a.i[0]));
  return d;
}

// test_log_softmax.py calls F.log_softmax(x) with no dim: torch's implicit dim, which is 1 for
// its 2-D shapes (caliber passes it).
SizeDetail tensor_only(const Args& a) { return SizeDetail{}.arg(size_of(a.t[0])); }

OpDef softmax_like(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kSoftmax)
      .shape_key("UnaryReductionBenchmark")
      .more_shapes(ops::reduction_more_shapes())
      .inputs(ops::tensor_and_dim())
      .call(std::move(call))
      .flops(ops::input_numel)
      .tolerance(2);
}

}  // namespace

std::vector<OpDef> softmax_ops() {
  using A = Args;
  auto softmax = [](A& a) { return at::softmax(a.t[0], a.i[0]); };
  auto log_softmax = [](A& a) { return at::log_softmax(a.t[0], a.i[0]); };
  std::vector<OpDef> ops = {
      softmax_like("softmax", softmax).aten({"aten::_softmax"}).detail(dim_unless_1d),
      softmax_like("softmax_backward", softmax)
          .backward()
          .aten({"aten::_softmax_backward_data"})
          .detail(dim_unless_1d),
      softmax_like("log_softmax", log_softmax)
          .shape_key("GenericBenchmark2DOnly")
          .detail(tensor_only)
          .aten({"aten::_log_softmax"}),
      softmax_like("log_softmax_backward", log_softmax)
          .shape_key("GenericBenchmark2DOnly")
          .backward()
          .aten({"aten::_log_softmax_backward_data"}),
      softmax_like("softmax_lastdim", [](A& a) { return at::softmax(a.t[0], -1); })
          .aten({"aten::_softmax"}),
  };
  return ops;
}

}  // namespace caliber
