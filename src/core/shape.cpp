#include "core/shape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"

namespace caliber {

ShapeValue ShapeValue::of(int64_t value) {
  ShapeValue v;
  v.integer = value;
  return v;
}

std::string ShapeValue::to_string() const {
  switch (kind) {
    case Kind::kInt:
      return std::to_string(integer);
    case Kind::kFloat:
      return fmt::format("{}", real);
    case Kind::kBool:
      return boolean ? "true" : "false";
    case Kind::kString:
      return text;
    case Kind::kList: {
      std::vector<std::string> parts;
      for (const auto& item : items) parts.push_back(item.to_string());
      return fmt::format("[{}]", fmt::join(parts, ", "));
    }
  }
  return "?";
}

Shape::Shape(std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) items.push_back(ShapeValue::of(d));
}

Shape Shape::of(const std::vector<int64_t>& dims) {
  Shape s;
  for (int64_t d : dims) s.items.push_back(ShapeValue::of(d));
  return s;
}

bool Shape::is_flat() const {
  for (const auto& item : items) {
    if (item.kind != ShapeValue::Kind::kInt) return false;
  }
  return true;
}

std::vector<int64_t> Shape::dims(const std::string& op) const {
  if (!is_flat()) throw_usage("{}: shape {} is not a list of integers", op, to_string());
  std::vector<int64_t> out;
  for (const auto& item : items) out.push_back(item.integer);
  return out;
}

std::string Shape::to_string() const {
  ShapeValue list;
  list.kind = ShapeValue::Kind::kList;
  list.items = items;
  return list.to_string();
}

std::string ShapeCase::label() const {
  return column_major ? shape.to_string() + " (B column-major)" : shape.to_string();
}

}  // namespace caliber
