#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ops/op_def.h"
#include "ops/schema_call.h"

// Deriving an op's in-place and out= variants from one definition: FlagGems benchmarks `acos`,
// `acos_` and `acos_out` with the same shapes and inputs, differing only in the call.
namespace caliber::ops {

enum Variant : unsigned {
  kBase = 1,     // mark -> aten::name[.overload]
  kInplace = 2,  // mark_ -> aten::name_[.overload], first input reset between calls
  kOut = 4,      // mark_out -> aten::name.out (aten::name.<overload>_out), a fresh out= tensor
  kBaseInplace = kBase | kInplace,
  kAll = kBase | kInplace | kOut,
};

// What every variant of a family shares (family, shape keys, inputs, counts), for one op name.
using Prototype = std::function<OpDef(const std::string& name)>;

// One row of a family table: the FlagGems mark of the base variant, the ATen operator it calls
// ("acos", "bitwise_and.Tensor"), the variants to derive, and arguments fixed by FlagGems'
// torch_op (`logit(a, eps=1e-6)`) or, marked ops::yielded, by its input_fn (printed).
struct Row {
  std::string mark;
  std::string aten;
  unsigned variants = kBase;
  std::vector<ArgValue> fixed = {};
  std::string out_aten = "";  // the out= overload where its name does not follow the rule
};

// The ops `row` names, built on `proto`: aten::<name> is called through aten_call() and listed
// as the op's ATen name. The out= tensor is allocated like the base call's result (dtype and
// shape), as FlagGems' `torch.empty_like(inp)` is for the shape-preserving ops it has. Without
// a DetailFn of the prototype's, an op's Size Detail is aten_call_detail() of its call (FlagGems'
// input_fn yielding the schema's arguments).
std::vector<OpDef> derive(const Prototype& proto, const Row& row);
// derive() over a table, in row order.
std::vector<OpDef> derive_all(const Prototype& proto, const std::vector<Row>& rows);
// Declares that the call of the op named `name` in `ops` also reaches `aten`: ATen's composite of
// the op's own operator calls it (not_equal_ -> ne_), so a candidate that overrides only `aten`
// covers the op. Throws std::logic_error when `ops` has no such op.
void also_reaches(std::vector<OpDef>& ops, const std::string& name, const std::string& aten);
// The op named `name` in `ops`, to declare what a table row cannot (a python_fn); throws
// std::logic_error when `ops` has no such op.
OpDef& named(std::vector<OpDef>& ops, const std::string& name);
// A family file's `add(proto, rows)`: derive_all() appended to `out`, which must outlive it.
std::function<void(const Prototype&, const std::vector<Row>&)> appender(std::vector<OpDef>& out);

// The mark of a variant of `mark`: "acos" -> "acos_", "acos_out".
std::string variant_mark(const std::string& mark, Variant v);
// The ATen operator of a variant of `aten`: "add.Tensor" -> "add_.Tensor", "add.out";
// "float_power.Tensor_Scalar" -> "float_power.Tensor_Scalar_out".
std::string variant_aten(const std::string& aten, Variant v);

}  // namespace caliber::ops
