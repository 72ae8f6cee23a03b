#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace caliber {

// One value of FlagGems' "Size Detail" as its benchmark's record_shapes() leaves it before
// Python prints it: a tensor becomes its torch.Size, numbers, strings and dtypes stay, tuples
// become lists, anything else (a device, a generator) becomes None.
struct PyValue {
  enum class Kind { kSize, kInt, kFloat, kBool, kString, kRaw, kNone, kList, kDict };
  Kind kind = Kind::kNone;
  std::vector<int64_t> dims;  // kSize
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::string text;  // kString (printed quoted) or kRaw (printed as is: "torch.float16")
  std::vector<PyValue> items;
  std::vector<std::string> keys;  // kDict: the key of items[i]

  static PyValue size(std::vector<int64_t> dims);
  static PyValue of(int64_t value);
  static PyValue real_number(double value);
  static PyValue flag(bool value);
  static PyValue str(std::string text);
  static PyValue raw(std::string text);
  static PyValue none();
  static PyValue list(std::vector<PyValue> items);
  static PyValue ints(const std::vector<int64_t>& values);  // a list of integers
  static PyValue dict(std::vector<std::pair<std::string, PyValue>> entries);

  // Python's repr() of the value: torch.Size([4, 8]), 5, 0.1, 1e-05, True, 'mean', None.
  std::string repr() const;
};

// What record_shapes(*args, **kwargs) returns for one case, printed as FlagGems prints it:
// "[a, b]" for positional arguments only, "{'k': v}" for keyword arguments only, and
// "([a, b], {'k': v})" for both.
struct SizeDetail {
  std::vector<PyValue> args;
  std::vector<std::pair<std::string, PyValue>> kwargs;

  SizeDetail& arg(PyValue value);
  SizeDetail& kwarg(std::string key, PyValue value);
  std::string to_string() const;
};

// Python's repr() of a float: the shortest text that reads back, with ".0" on integral values
// and an exponent below 1e-4 or from 1e16 on (0.1, 1.0, 1e-05, 1e+16, inf, nan).
std::string python_float(double value);

}  // namespace caliber
