#include "engine/provider/python_error_text.h"

#include <cxxabi.h>
#include <pybind11/gil.h>
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace py = pybind11;

namespace caliber {
namespace {

// The exception types are libtorch_python's, hidden from other libraries, so they are told by
// name rather than caught by type.
bool is_python_exception_type(const std::type_info* type) {
  if (type == nullptr) return false;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(type->name(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || name == nullptr) return false;
  const std::string text = name.get();
  return text == "pybind11::error_already_set" || text == "python_error";
}

}  // namespace

std::string last_traceback_line(const py::error_already_set& error) {
  try {
    const py::list lines =
        py::module_::import("traceback").attr("format_exception_only")(error.type(), error.value());
    std::string text;
    for (const auto& line : lines) text += line.cast<std::string>();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text.substr(text.rfind('\n') + 1);
  } catch (const py::error_already_set&) {
    return error.what();
  }
}

std::string take_pending_python_error() {
  py::gil_scoped_acquire gil;
  if (PyErr_Occurred() == nullptr) return "";
  py::error_already_set pending;
  return last_traceback_line(pending);
}

std::string python_exception_line(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    if (!is_python_exception_type(abi::__cxa_current_exception_type())) return "";
    // pybind11 writes "Type: message\n\nAt:\n  traceback"; python_error the message alone.
    const std::string text = e.what();
    return text.substr(0, text.find('\n'));
  } catch (...) {
  }
  return "";
}

}  // namespace caliber
