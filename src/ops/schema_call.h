#pragma once

#include <ATen/core/ivalue.h>

#include <string>
#include <utility>
#include <vector>

#include "core/size_detail.h"
#include "ops/args.h"
#include "ops/op_def.h"

namespace caliber::ops {

// A value fixed for one named argument of an ATen operator's schema.
struct ArgValue {
  std::string name;
  c10::IValue value;
  // FlagGems' input_fn yields the value, so its Size Detail prints it (`_softmax.out`'s
  // half_to_float False); otherwise its torch_op passes it (`logit(a, eps=1e-6)`) and it is not
  // printed.
  bool yielded = false;
};

// A value FlagGems' input_fn yields: ArgValue::yielded.
inline ArgValue yielded(std::string name, c10::IValue value) {
  return {std::move(name), std::move(value), true};
}

// Calls the ATen operator `qualified` ("aten::acos", "aten::hardshrink.out") through the
// dispatcher, as at::<name> does, so that a candidate's overrides apply to it the same way.
// Its arguments are read off the schema, in order:
//   - an argument named in `fixed` takes that value;
//   - a Tensor (out= tensors included) the next tensor of Args::t; a Tensor[] the tensors that
//     the later Tensor arguments leave;
//   - a Scalar or float the next Args::f (then Args::i; an integer Scalar of a bool tensor is
//     passed as a bool); an int the next Args::i; an int list the next Args::lists (else the
//     next Args::i, as a one-element list);
//   - a ScalarType without a default the first tensor's dtype (softmax backward's input_dtype);
//     `dtype` and `device` of an op without tensor inputs (a creation op) the case's;
//   - every other argument its schema default (None where optional).
// A tuple or list result gives its first tensor. This is what lets a table row name an op and
// its `_` and `_out` variants without a call written out for each.
CallFn aten_call(const std::string& qualified, std::vector<ArgValue> fixed = {});

// The Size Detail of that call as FlagGems prints it when its input_fn yields the operator's
// arguments as the schema takes them (it calls `torch.ops.aten.<op>.<overload>` or a function
// bound to it): in schema order, what the input_fn gives, positional arguments by position and
// keyword-only ones (out=, grad_input=) by their schema names. It gives what Args fills, the
// fixed values marked yielded, and a ScalarType filled from the first tensor (softmax
// backward's input_dtype, printed as its torch dtype: `torch.float16`); schema defaults and
// the other fixed values are its torch_op's, not printed.
SizeDetail aten_call_detail(const std::string& qualified, const std::vector<ArgValue>& fixed,
                            const Args& a);

}  // namespace caliber::ops
