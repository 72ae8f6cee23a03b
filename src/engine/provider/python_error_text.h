#pragma once

#include <pybind11/pytypes.h>

#include <exception>
#include <string>

namespace caliber {

// The last line of a Python exception's traceback ("ValueError: bad shape"): the exception's
// type and message, which is what a FAILED row can carry. The caller holds the GIL.
std::string last_traceback_line(const pybind11::error_already_set& error);

// Takes (and clears) the Python exception pending on this thread, as its last traceback line;
// empty when none is pending. torch's Python kernels, called from C++, leave their exception
// pending when they throw. Takes the GIL itself.
std::string take_pending_python_error();

// When `failure` is a Python exception that torch carried out of a Python kernel into C++ (as
// its pybind11's error_already_set or its python_error), the exception's one-line message
// ("ValueError: bad shape"); empty for any other failure.
std::string python_exception_line(std::exception_ptr failure);

}  // namespace caliber
