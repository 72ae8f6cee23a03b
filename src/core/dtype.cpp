#include "core/dtype.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "core/choice.h"
#include "core/error.h"

namespace caliber {
namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;
  int size;
  std::vector<const char*> aliases;
};

const std::vector<DTypeInfo>& table() {
  static const std::vector<DTypeInfo> t = {
      {DType::kFloat16, "float16", 2, {"fp16", "half"}},
      {DType::kBFloat16, "bfloat16", 2, {"bf16"}},
      {DType::kFloat32, "float32", 4, {"fp32", "float"}},
      {DType::kFloat64, "float64", 8, {"fp64", "double"}},
      {DType::kInt8, "int8", 1, {}},
      {DType::kInt16, "int16", 2, {"short"}},
      {DType::kInt32, "int32", 4, {"int"}},
      {DType::kInt64, "int64", 8, {"long"}},
      {DType::kUInt8, "uint8", 1, {}},
      {DType::kBool, "bool", 1, {}},
      {DType::kComplex64, "complex64", 8, {"cfloat"}},
      {DType::kFloat8E4M3, "float8_e4m3fn", 1, {"fp8", "fp8_e4m3"}},
      {DType::kFloat8E5M2, "float8_e5m2", 1, {"fp8_e5m2"}},
  };
  return t;
}

const DTypeInfo& info(DType dtype) {
  for (const auto& entry : table()) {
    if (entry.dtype == dtype) return entry;
  }
  throw Error(ErrorKind::kInternal, "unknown dtype enum value");
}

}  // namespace

const std::vector<DType> kFloatDTypes = {DType::kFloat16, DType::kFloat32, DType::kBFloat16};
const std::vector<DType> kIntDTypes = {DType::kInt16, DType::kInt32};
const std::vector<DType> kBoolDTypes = {DType::kBool};
const std::vector<DType> kComplexDTypes = {DType::kComplex64};

const char* dtype_name(DType dtype) { return info(dtype).name; }
std::string torch_dtype_name(DType dtype) { return std::string("torch.") + dtype_name(dtype); }
int dtype_size(DType dtype) { return info(dtype).size; }

bool is_floating(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kFloat32:
    case DType::kFloat64:
    case DType::kFloat8E4M3:
    case DType::kFloat8E5M2:
      return true;
    default:
      return false;
  }
}

bool is_integral(DType dtype) { return !is_floating(dtype) && dtype != DType::kComplex64; }

std::string accepted_dtypes() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

DType parse_dtype(std::string_view knob, std::string_view text) {
  std::string name = to_lower(text);
  if (name.rfind("torch.", 0) == 0) name = name.substr(6);
  for (const auto& entry : table()) {
    if (name == entry.name) return entry.dtype;
    for (const char* alias : entry.aliases) {
      if (name == alias) return entry.dtype;
    }
  }
  throw_usage("{}: '{}' is not a dtype (accepted: {})", knob, text, accepted_dtypes());
}

std::vector<DType> parse_dtype_list(std::string_view knob, std::string_view text) {
  std::vector<DType> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) {
      DType dtype = parse_dtype(knob, item);
      if (std::find(out.begin(), out.end(), dtype) == out.end()) out.push_back(dtype);
    }
    start = end + 1;
  }
  if (out.empty()) throw_usage("{}: empty dtype list (accepted: {})", knob, accepted_dtypes());
  return out;
}

}  // namespace caliber
