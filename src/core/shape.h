#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace caliber {

// One element of a shape tuple as FlagGems' YAML files write it: mostly integers, sometimes a
// nested list ([[32, 384, 128], 1, false]), a boolean, a float or a word.
struct ShapeValue {
  enum class Kind { kInt, kFloat, kBool, kString, kList };
  Kind kind = Kind::kInt;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::string text;
  std::vector<ShapeValue> items;

  static ShapeValue of(int64_t value);
  bool operator==(const ShapeValue& other) const = default;
  // Flow-style YAML, which is also how a person reads it: 64, [8, 2], false.
  std::string to_string() const;
};

// One entry of a `shapes:` list.
struct Shape {
  std::vector<ShapeValue> items;

  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  static Shape of(const std::vector<int64_t>& dims);

  bool is_flat() const;  // every item an integer
  // The integers of a flat shape; a usage error naming `op` otherwise.
  std::vector<int64_t> dims(const std::string& op) const;
  std::string to_string() const;  // "[2, 384, 384, 384]"
  bool operator==(const Shape& other) const = default;
};

// What one benchmark case is built from: a shape, plus FlagGems' BLAS second pass where the
// second operand is laid out column-major.
struct ShapeCase {
  Shape shape;
  bool column_major = false;

  std::string label() const;  // "[2, 384, 384, 384]" or "[...] (B column-major)"
  bool operator==(const ShapeCase& other) const = default;
};

}  // namespace caliber
