#include <ATen/ops/sum.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/op_shapes.h"
#include "ops/args.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

// ATen's CUDA multinomial sums each row of weights in the input dtype. On an H200 (2026-11-29)
// float16 rows of 65536 weights in [0.5, 1.5) summed past float16's largest value, 65504: every
// probability became 0 and the kernel asserted. The widest row the shape lists give must sum
// well inside float16's range, with room for its rounding.
TEST(MultinomialInputs, Float16RowsSumWithinFloat16Range) {
  const OpDef& op = find_op("multinomial");
  int64_t widest = 0;
  for (Level level : {Level::kCore, Level::kComprehensive}) {
    for (const Shape& shape : resolve_op_shapes(op, ShapeSources{.level = level}).shapes) {
      widest = std::max(widest, shape.dims("multinomial").back());
    }
  }
  ASSERT_GE(widest, 65536);

  BuildContext context;
  context.op = op.name();
  context.shape_case = {Shape{64, widest}, false};
  context.dtype = DType::kFloat16;
  Args args;
  op.inputs()(context, args);
  ASSERT_EQ(args.t.size(), 1u);
  double largest_row = at::sum(args.t[0].to(at::kDouble), {1}).max().item<double>();
  EXPECT_LT(largest_row, 0.75 * 65504) << "rows of " << widest << " weights";
  EXPECT_GT(largest_row, 0);
}

}  // namespace
}  // namespace caliber
