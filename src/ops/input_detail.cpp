#include "ops/input_detail.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>

#include "core/error.h"

namespace caliber {

PyValue size_of(const at::Tensor& t) {
  if (!t.defined()) return PyValue::none();
  return PyValue::size(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
}

PyValue torch_dtype(at::ScalarType type) {
  for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64, DType::kInt8,
                  DType::kInt16, DType::kInt32, DType::kInt64, DType::kUInt8, DType::kBool,
                  DType::kComplex64, DType::kFloat8E4M3, DType::kFloat8E5M2}) {
    if (to_scalar_type(d) == type) return PyValue::raw(torch_dtype_name(d));
  }
  return PyValue::raw(std::string("torch.") + c10::toString(type));
}

SizeDetail creation_kwargs(const std::vector<int64_t>& size, const at::TensorOptions& options) {
  return SizeDetail{}
      .kwarg("size", PyValue::ints(size))
      .kwarg("dtype", torch_dtype(c10::typeMetaToScalarType(options.dtype())))
      .kwarg("device", PyValue::str(c10::DeviceTypeName(options.device().type(), true)));
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
