#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// Element types by their torch names. The engine maps them to ATen scalar types; every layer
// above it only needs the names.
enum class DType {
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kBool,
  kComplex64,
  kFloat8E4M3,
  kFloat8E5M2,
};

const char* dtype_name(DType dtype);        // "float16"
std::string torch_dtype_name(DType dtype);  // "torch.float16", as FlagGems prints it
bool is_floating(DType dtype);
bool is_integral(DType dtype);  // bool counts as integral here
int dtype_size(DType dtype);

// Accepts "float16", "torch.float16", "fp16", "half", "bf16", ... case-insensitively.
DType parse_dtype(std::string_view knob, std::string_view text);
std::vector<DType> parse_dtype_list(std::string_view knob, std::string_view text);
std::string accepted_dtypes();

// FlagGems' dtype groups.
extern const std::vector<DType> kFloatDTypes;  // float16, float32, bfloat16
extern const std::vector<DType> kIntDTypes;    // int16, int32 (FlagGems' INT_DTYPES)
extern const std::vector<DType> kBoolDTypes;
extern const std::vector<DType> kComplexDTypes;

}  // namespace caliber
