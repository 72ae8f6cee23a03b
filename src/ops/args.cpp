#include "ops/args.h"

#include <c10/core/TensorOptions.h>

namespace caliber {

at::ScalarType to_scalar_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return at::kHalf;
    case DType::kBFloat16:
      return at::kBFloat16;
    case DType::kFloat32:
      return at::kFloat;
    case DType::kFloat64:
      return at::kDouble;
    case DType::kInt8:
      return at::kChar;
    case DType::kInt16:
      return at::kShort;
    case DType::kInt32:
      return at::kInt;
    case DType::kInt64:
      return at::kLong;
    case DType::kUInt8:
      return at::kByte;
    case DType::kBool:
      return at::kBool;
    case DType::kComplex64:
      return at::kComplexFloat;
    case DType::kFloat8E4M3:
      return at::kFloat8_e4m3fn;
    case DType::kFloat8E5M2:
      return at::kFloat8_e5m2;
  }
  return at::kFloat;
}

at::ScalarType BuildContext::scalar_type() const { return to_scalar_type(dtype); }

at::TensorOptions BuildContext::options() const {
  return at::TensorOptions().dtype(scalar_type()).device(device);
}

std::vector<int64_t> BuildContext::dims() const { return shape_case.shape.dims(op); }

}  // namespace caliber
