#include "ops/input_detail.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>

#include "core/error.h"

namespace caliber {

PyValue size_of(const at::Tensor& t) {
  if (!t.defined()) return PyValue::none();
  return PyValue::size(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
}

SizeDetail default_size_detail(const Args& a) {
  SizeDetail d;
  for (const auto& t : a.t) d.arg(size_of(t));
  for (int64_t v : a.i) d.arg(PyValue::of(v));
  for (double v : a.f) d.arg(PyValue::real_number(v));
  for (const auto& l : a.lists) d.arg(PyValue::ints(l));
  return d;
}

SizeDetail size_detail_of(const OpDef& op, const Args& a) {
  return op.detail() ? op.detail()(a) : default_size_detail(a);
}

std::string case_size_detail(const OpDef& op, const ShapeCase& shape, DType dtype,
                             const std::string& device) {
  if (!op.inputs()) throw Error(ErrorKind::kInternal, op.name() + ": op definition has no inputs");
  BuildContext ctx;
  ctx.op = op.name();
  ctx.shape_case = shape;
  ctx.dtype = dtype;
  try {
    ctx.device = c10::Device(device);
    Args args;
    args.options = ctx.options();
    op.inputs()(ctx, args);
    return size_detail_of(op, args).to_string();
  } catch (const c10::Error& e) {
    std::string what = e.what();
    throw Error(ErrorKind::kOpFailure,
                fmt::format("{} {} {} on {}: {}", op.name(), dtype_name(dtype), shape.label(),
                            device, what.substr(0, what.find('\n'))));
  }
}

}  // namespace caliber
