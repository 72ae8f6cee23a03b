#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"
#include "core/shape_resolver.h"
#include "core/size_detail.h"
#include "ops/family.h"
#include "ops/python_fn.h"

// Torch types only by name: this header is read by layers that must not pay for torch's
// headers; the callables are written (and called) in engine/ and ops/ translation units.
namespace at {
class Tensor;
}

namespace caliber {

struct Args;          // ops/args.h: the inputs built for one case
struct BuildContext;  // ops/args.h: shape, dtype, device of that case

using BuildFn = std::function<void(const BuildContext&, Args&)>;
using CallFn = std::function<at::Tensor(Args&)>;
// Bytes moved or FLOPs done by one call, from the inputs and the output of an untimed call.
using CountFn = std::function<double(const Args&, const at::Tensor& out)>;
// Verification for ops without a float64 reference (random numbers, uninitialised memory):
// returns what is wrong with `out`, or "" when it is acceptable.
using CheckFn = std::function<std::string(const Args&, const at::Tensor& out)>;
// Why the op leaves `shape` out (its output would not fit in any device's memory), or "" when it
// runs there. The shape files are shared by many ops; FlagGems' tests filter them per op.
using SkipShapeFn = std::function<std::string(const Shape&)>;
// FlagGems' "Size Detail" of one case: the arguments its input_fn yields, in its order, with its
// keyword names. Without one, the inputs print as tensors, integers, floats, lists.
using DetailFn = std::function<SizeDetail(const Args&)>;

// One benchmarked operator, written as a row of a table: see src/ops/ for the families.
class OpDef {
 public:
  explicit OpDef(std::string name);

  // Setters return *this so that a definition reads as one fluent expression.
  OpDef& family(Family family);
  OpDef& dtypes(std::vector<DType> dtypes);
  // FlagGems class keys of the fallback chain, most specific first (like a class's MRO).
  OpDef& shape_keys(std::vector<std::string> keys);
  OpDef& shape_key(std::string key);  // puts a more specific key in front of the chain
  OpDef& shape_desc(std::string desc);
  OpDef& builtin_shapes(std::vector<Shape> shapes);
  OpDef& more_shapes(std::vector<Shape> shapes);  // merged at level=comprehensive
  OpDef& column_major_pass(bool on = true);       // BLAS: comprehensive second pass
  OpDef& skip_shapes(SkipShapeFn why);            // see SkipShapeFn; ShapeSet::skipped lists them
  OpDef& inputs(BuildFn build);
  OpDef& call(CallFn call);
  OpDef& bytes(CountFn bytes);
  OpDef& flops(CountFn flops);
  OpDef& check(CheckFn check);
  OpDef& tolerance(double scale);    // multiplies the dtype's verification tolerance
  OpDef& inplace(bool on = true);    // the call mutates its first input: reset between calls
  OpDef& backward(bool on = true);   // time torch::autograd::grad of the call's output
  OpDef& host_sync(bool on = true);  // the call waits for the device (nonzero, masked_select)
  OpDef& rng(bool on = true);        // the call draws from the default generator
  OpDef& aten(std::vector<std::string> names);  // what the call dispatches to
  // Other names FlagGems' benchmark marks this op with (`absolute` for `abs`).
  OpDef& aliases(std::vector<std::string> names);
  OpDef& detail(DetailFn detail);
  // A function a python: candidate may offer for this op, which the dispatcher never reaches (a
  // fused kernel): `.python_fn("silu_and_mul", {t(0), t(1)})` with py_args' t, i, f, list, kw
  // and constants; `result` picks the element of a tuple result that matches the composite's.
  // When declared, it alone covers the op (docs/providers.md).
  OpDef& python_fn(std::string name, std::vector<PyArg> args, std::size_t result = 0);

  const std::string& name() const { return name_; }
  Family family() const { return family_; }
  const std::vector<DType>& dtypes() const { return dtypes_; }
  const std::vector<std::string>& shape_keys() const { return shape_keys_; }
  const std::string& shape_desc() const { return shape_desc_; }
  const std::vector<Shape>& builtin_shapes() const { return builtin_shapes_; }
  const std::vector<Shape>& more_shapes() const { return more_shapes_; }
  bool column_major_pass() const { return column_major_pass_; }
  const SkipShapeFn& skip_shapes() const { return skip_shapes_; }
  const BuildFn& inputs() const { return build_; }
  const CallFn& call() const { return call_; }
  const CountFn& bytes() const { return bytes_; }
  const CountFn& flops() const { return flops_; }
  const CheckFn& check() const { return check_; }
  double tolerance() const { return tolerance_; }
  bool inplace() const { return inplace_; }
  bool backward() const { return backward_; }
  bool host_sync() const { return host_sync_; }
  bool rng() const { return rng_; }
  // ATen operator names the call dispatches to ("aten::mm"); "aten::" + name unless given.
  const std::vector<std::string>& aten() const { return aten_; }
  const std::vector<std::string>& aliases() const { return aliases_; }
  bool answers_to(const std::string& name) const;  // its name or one of its aliases
  const DetailFn& detail() const { return detail_; }
  const std::optional<PythonFn>& python_fn() const { return python_fn_; }
  bool supports(DType dtype) const;
  std::vector<std::string> flag_names() const;  // "inplace", "backward", ...

  ShapeQuery shape_query() const;

 private:
  std::string name_;
  Family family_ = Family::kUnary;
  std::vector<DType> dtypes_ = kFloatDTypes;
  std::vector<std::string> shape_keys_;
  std::string shape_desc_;
  std::vector<Shape> builtin_shapes_;
  std::vector<Shape> more_shapes_;
  bool column_major_pass_ = false;
  SkipShapeFn skip_shapes_;
  BuildFn build_;
  CallFn call_;
  CountFn bytes_;
  CountFn flops_;
  CheckFn check_;
  double tolerance_ = 1.0;
  bool inplace_ = false;
  bool backward_ = false;
  bool host_sync_ = false;
  bool rng_ = false;
  std::vector<std::string> aten_;
  std::vector<std::string> aliases_;
  DetailFn detail_;
  std::optional<PythonFn> python_fn_;
};

}  // namespace caliber
