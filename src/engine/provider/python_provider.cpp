#include "engine/provider/python_provider.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/gil.h>
#include <pybind11/pybind11.h>

#include <utility>
#include <vector>

#include "core/error.h"
#include "engine/provider/dispatch_snapshot.h"
#include "engine/provider/embedded_python.h"
#include "engine/provider/python_error_text.h"
#include "engine/provider/source_checkout.h"

namespace py = pybind11;

namespace caliber {

// Hidden like pybind11's own types, which it holds.
struct __attribute__((visibility("hidden"))) PythonProvider::Objects {
  py::module_ module;
  std::string context_name;
  py::object make_context;
  py::object entered;  // the context manager of the current scope, or None
};

namespace {

// Tried in order when the spec names no context: caliber's own convention, then FlagGems'.
const std::vector<std::string> kDefaultContexts = {"caliber_context", "use_gems"};

// `module.a.b` for "a.b"; a null object when some part is missing.
py::object attribute_path(const py::object& root, const std::string& dotted) {
  py::object current = root;
  std::size_t begin = 0;
  while (begin <= dotted.size()) {
    const auto end = std::min(dotted.find('.', begin), dotted.size());
    const std::string part = dotted.substr(begin, end - begin);
    if (!py::hasattr(current, part.c_str())) return py::object();
    current = current.attr(part.c_str());
    begin = end + 1;
  }
  return current;
}

std::string module_version(const py::module_& module, const std::string& name) {
  std::string version = name;
  if (py::hasattr(module, "__version__")) {
    version += " " + py::str(module.attr("__version__")).cast<std::string>();
  }
  if (py::hasattr(module, "__file__") && !module.attr("__file__").is_none()) {
    const std::string commit = git_commit_of(module.attr("__file__").cast<std::string>());
    if (!commit.empty()) version += " (git " + commit + ")";
  }
  return version;
}

}  // namespace

PythonProvider::PythonProvider(ProviderSpec spec, std::unique_ptr<DispatchSnapshot> pristine)
    : Provider(spec.text, std::move(pristine)), spec_(std::move(spec)) {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  // Declared after the GIL guard so that it is released, on every path, while the GIL is held.
  auto objects = std::make_unique<Objects>();
  try {
    objects->module = py::module_::import(spec_.module.c_str());
  } catch (const py::error_already_set& e) {
    throw_usage("--candidate {}: cannot import {}: {} (searched: PYTHONPATH, then {}'s paths)",
                spec_.text, spec_.module, last_traceback_line(e), embedded_python_executable());
  }
  const std::vector<std::string> names =
      spec_.context.empty() ? kDefaultContexts : std::vector<std::string>{spec_.context};
  for (const auto& name : names) {
    py::object found = attribute_path(objects->module, name);
    if (found && PyCallable_Check(found.ptr())) {
      objects->context_name = name;
      objects->make_context = std::move(found);
      break;
    }
  }
  if (!objects->make_context) {
    throw_usage(
        "--candidate {}: module {} has no callable {} (accepted: python:{}:CALLABLE, a "
        "callable of the module that returns a context manager)",
        spec_.text, spec_.module, fmt::format("{}", fmt::join(names, " or ")), spec_.module);
  }
  objects->entered = py::none();
  version_ = module_version(objects->module, spec_.module);
  objects_ = std::move(objects);
}

PythonProvider::~PythonProvider() {
  py::gil_scoped_acquire gil;
  objects_.reset();
}

std::string PythonProvider::version() const { return version_; }

void PythonProvider::enter() {
  py::gil_scoped_acquire gil;
  try {
    py::object context = objects_->make_context();
    context.attr("__enter__")();
    objects_->entered = std::move(context);
  } catch (const py::error_already_set& e) {
    throw Error(ErrorKind::kOpFailure,
                fmt::format("{}: entering {}.{}() failed: {}", spec_.text, spec_.module,
                            objects_->context_name, last_traceback_line(e)));
  }
}

void PythonProvider::exit(bool unwinding) {
  // Taken first: the context manager cannot run with another exception pending.
  if (unwinding) pending_failure_ = take_pending_python_error();
  py::gil_scoped_acquire gil;
  py::object context = std::exchange(objects_->entered, py::none());
  try {
    context.attr("__exit__")(py::none(), py::none(), py::none());
  } catch (const py::error_already_set& e) {
    if (unwinding) return;  // the measurement's own failure is the one to report
    throw Error(ErrorKind::kOpFailure,
                fmt::format("{}: leaving {}.{}() failed: {}", spec_.text, spec_.module,
                            objects_->context_name, last_traceback_line(e)));
  }
}

std::string PythonProvider::failure_message(std::exception_ptr failure) {
  if (std::string pending = std::exchange(pending_failure_, std::string()); !pending.empty()) {
    return pending;
  }
  if (std::string pending = take_pending_python_error(); !pending.empty()) return pending;
  return python_exception_line(failure);
}

}  // namespace caliber
