#pragma once

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

#include "ops/args.h"
#include "ops/op_def.h"

namespace caliber::ops {

// A value fixed for one named argument of an ATen operator's schema.
struct ArgValue {
  std::string name;
  c10::IValue value;
};

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

}  // namespace caliber::ops
