#include "core/size_detail.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <cmath>

namespace caliber {

PyValue PyValue::size(std::vector<int64_t> dims) {
  PyValue v;
  v.kind = Kind::kSize;
  v.dims = std::move(dims);
  return v;
}
PyValue PyValue::of(int64_t value) {
  PyValue v;
  v.kind = Kind::kInt;
  v.integer = value;
  return v;
}
PyValue PyValue::real_number(double value) {
  PyValue v;
  v.kind = Kind::kFloat;
  v.real = value;
  return v;
}
PyValue PyValue::flag(bool value) {
  PyValue v;
  v.kind = Kind::kBool;
  v.boolean = value;
  return v;
}
PyValue PyValue::str(std::string text) {
  PyValue v;
  v.kind = Kind::kString;
  v.text = std::move(text);
  return v;
}
PyValue PyValue::raw(std::string text) {
  PyValue v;
  v.kind = Kind::kRaw;
  v.text = std::move(text);
  return v;
}
PyValue PyValue::none() { return PyValue{}; }
PyValue PyValue::list(std::vector<PyValue> items) {
  PyValue v;
  v.kind = Kind::kList;
  v.items = std::move(items);
  return v;
}
PyValue PyValue::ints(const std::vector<int64_t>& values) {
  std::vector<PyValue> items;
  for (int64_t x : values) items.push_back(of(x));
  return list(std::move(items));
}

PyValue PyValue::dict(std::vector<std::pair<std::string, PyValue>> entries) {
  PyValue v;
  v.kind = Kind::kDict;
  for (auto& [key, value] : entries) {
    v.keys.push_back(key);
    v.items.push_back(std::move(value));
  }
  return v;
}

std::string python_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  // The shortest round-trip digits and their decimal exponent, placed as Python's repr() does.
  std::array<char, 64> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), std::fabs(value),
                                 std::chars_format::scientific);
  std::string sci(buffer.data(), end);
  size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits += c;
  }
  int exponent = std::stoi(sci.substr(e + 1));
  std::string sign = value < 0 ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) mantissa += "." + digits.substr(1);
    return fmt::format("{}{}e{}{:02d}", sign, mantissa, exponent < 0 ? '-' : '+',
                       std::abs(exponent));
  }
  int n = static_cast<int>(digits.size());
  if (exponent < 0) return sign + "0." + std::string(-exponent - 1, '0') + digits;
  if (n <= exponent + 1) return sign + digits + std::string(exponent + 1 - n, '0') + ".0";
  return sign + digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
}

namespace {

std::string quoted(const std::string& text) {
  // Python picks single quotes unless the text holds one and no double quote.
  bool single = text.find('\'') != std::string::npos;
  bool dbl = text.find('"') != std::string::npos;
  char q = single && !dbl ? '"' : '\'';
  std::string out(1, q);
  for (char c : text) {
    if (c == '\\' || c == q) out += '\\';
    out += c;
  }
  return out + q;
}

std::string join_items(const std::vector<PyValue>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i].repr();
  }
  return out;
}

std::string dict_text(const std::vector<std::string>& keys, const std::vector<PyValue>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += quoted(keys[i]) + ": " + items[i].repr();
  }
  return out + "}";
}

}  // namespace

std::string PyValue::repr() const {
  switch (kind) {
    case Kind::kSize:
      return fmt::format("torch.Size([{}])", fmt::join(dims, ", "));
    case Kind::kInt:
      return std::to_string(integer);
    case Kind::kFloat:
      return python_float(real);
    case Kind::kBool:
      return boolean ? "True" : "False";
    case Kind::kString:
      return quoted(text);
    case Kind::kRaw:
      return text;
    case Kind::kNone:
      return "None";
    case Kind::kList:
      return "[" + join_items(items) + "]";
    case Kind::kDict:
      return dict_text(keys, items);
  }
  return "None";
}

SizeDetail& SizeDetail::arg(PyValue value) {
  args.push_back(std::move(value));
  return *this;
}

SizeDetail& SizeDetail::kwarg(std::string key, PyValue value) {
  // A later keyword replaces an earlier one in place, as dict.update() does.
  for (auto& [k, v] : kwargs) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  kwargs.emplace_back(std::move(key), std::move(value));
  return *this;
}

std::string SizeDetail::to_string() const {
  std::vector<std::string> keys;
  std::vector<PyValue> values;
  for (const auto& [k, v] : kwargs) {
    keys.push_back(k);
    values.push_back(v);
  }
  std::string positional = "[" + join_items(args) + "]";
  if (kwargs.empty()) return positional;
  std::string named = dict_text(keys, values);
  if (args.empty()) return named;
  return "(" + positional + ", " + named + ")";
}

}  // namespace caliber
