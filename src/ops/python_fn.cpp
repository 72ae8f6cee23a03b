#include "ops/python_fn.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace caliber {
namespace {

std::string constant_text(const PyConstant& value) {
  struct Text {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return fmt::format("{}", d); }
    std::string operator()(const std::string& s) const { return fmt::format("'{}'", s); }
  };
  return std::visit(Text{}, value);
}

std::string arg_text(const PyArg& arg) {
  std::string value;
  switch (arg.source) {
    case PyArg::Source::kTensor:
      value = fmt::format("t[{}]", arg.index);
      break;
    case PyArg::Source::kOptionalTensor:
      value = fmt::format("t[{}] or None", arg.index);
      break;
    case PyArg::Source::kInt:
      value = fmt::format("i[{}]", arg.index);
      break;
    case PyArg::Source::kFlag:
      value = fmt::format("bool(i[{}])", arg.index);
      break;
    case PyArg::Source::kFloat:
      value = fmt::format("f[{}]", arg.index);
      break;
    case PyArg::Source::kIntList:
      value = fmt::format("lists[{}]", arg.index);
      break;
    case PyArg::Source::kConstant:
      value = constant_text(arg.constant);
      break;
  }
  return arg.keyword.empty() ? value : arg.keyword + "=" + value;
}

}  // namespace

std::string to_string(const PythonFn& fn) {
  std::vector<std::string> parts;
  for (const auto& arg : fn.args) parts.push_back(arg_text(arg));
  std::string text = fmt::format("{}({})", fn.name, fmt::join(parts, ", "));
  if (fn.result != 0) text += fmt::format("[{}]", fn.result);
  return text;
}

}  // namespace caliber
