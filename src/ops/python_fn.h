#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

// A Python function a candidate may offer for an op the dispatcher never reaches (a fused kernel
// whose baseline is an ATen composite: flag_gems.silu_and_mul), described as plain data: the
// python: provider turns it into a call, and ops/ stays free of Python.
namespace caliber {

// None, True/False, an int, a float or a str, written into the call as is.
using PyConstant = std::variant<std::monostate, bool, int64_t, double, std::string>;

// One argument of the call: a value of the case's Args, by position, or a constant; positional
// unless it has a keyword.
struct PyArg {
  enum class Source { kTensor, kOptionalTensor, kInt, kFlag, kFloat, kIntList, kConstant };

  // Constants convert implicitly, so that a binding reads `{t(0), t(1), list(0), t(2), 1e-5}`.
  PyArg(double value) : constant(value) {}                    // NOLINT
  PyArg(int value) : constant(int64_t{value}) {}              // NOLINT
  PyArg(bool value) : constant(value) {}                      // NOLINT
  PyArg(const char* value) : constant(std::string(value)) {}  // NOLINT
  PyArg(std::nullptr_t) {}                                    // NOLINT: None
  PyArg(Source source, std::size_t index) : source(source), index(index) {}

  Source source = Source::kConstant;
  std::size_t index = 0;  // into Args::t, ::i (kInt, kFlag), ::f or ::lists
  PyConstant constant;
  std::string keyword;  // empty: positional
};

// The function's dotted name inside the candidate's module ("silu_and_mul", "ops.x.fn") and its
// argument list, in the order of FlagGems' gems_op call. A function returning a tuple or list is
// compared through its element `result`: mhc_pre returns (post_mix, comb_mix, layer_input), and
// the op's composite returns layer_input.
struct PythonFn {
  std::string name;
  std::vector<PyArg> args;
  std::size_t result = 0;
};

// The binding's vocabulary: tensor a.t[i], int a.i[i], float a.f[i], int list a.lists[i] (passed
// as a tuple, as FlagGems' input_fn yields normalized_shape), and `kw("eps", 1e-5)` for a keyword.
// Args keeps booleans as ints and optional tensors by leaving them out: `flag(i)` passes a.i[i] as
// a bool, `t_or_none(i)` passes a.t[i], or None where the case has no such tensor (mrope's
// axis_map exists on its GLM rows only).
namespace py_args {
inline PyArg t(std::size_t n) { return {PyArg::Source::kTensor, n}; }
inline PyArg t_or_none(std::size_t n) { return {PyArg::Source::kOptionalTensor, n}; }
inline PyArg i(std::size_t n) { return {PyArg::Source::kInt, n}; }
inline PyArg flag(std::size_t n) { return {PyArg::Source::kFlag, n}; }
inline PyArg f(std::size_t n) { return {PyArg::Source::kFloat, n}; }
inline PyArg list(std::size_t n) { return {PyArg::Source::kIntList, n}; }
inline PyArg kw(std::string name, PyArg value) {
  value.keyword = std::move(name);
  return value;
}
}  // namespace py_args

// "fused_add_rms_norm(t[0], t[1], lists[0], t[2], 1e-05)": the call as messages print it, with
// "[2]" after it when an element other than the first of its result is compared.
std::string to_string(const PythonFn& fn);

}  // namespace caliber
