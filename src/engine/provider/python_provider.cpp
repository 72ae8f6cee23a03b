#include "engine/provider/python_provider.h"

#include <ATen/DLConvertor.h>
#include <ATen/core/Tensor.h>
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
#include "engine/provider/triton_allocator.h"
#include "ops/args.h"

namespace py = pybind11;

namespace caliber {

// Hidden like pybind11's own types, which it holds.
struct __attribute__((visibility("hidden"))) PythonProvider::Objects {
  py::module_ module;
  std::string context_name;
  py::object make_context;
  py::object entered;                   // the context manager of the current scope, or None
  py::object install_triton_allocator;  // see make_triton_allocator_installer()

  // A candidate function with its arguments, converted once per case.
  struct BoundCall {
    py::object function;
    py::tuple positional;
    py::dict keywords;
  };
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

// DLPack's capsule protocol: a consumer renames the capsule it took ownership of.
constexpr const char* kDlpackName = "dltensor";
constexpr const char* kDlpackUsedName = "used_dltensor";

void delete_unconsumed_dlpack(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kDlpackUsedName)) return;
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kDlpackName));
  if (managed == nullptr) {
    PyErr_Clear();
    return;
  }
  if (managed->deleter != nullptr) managed->deleter(managed);
}

// A torch.Tensor sharing `tensor`'s memory.
py::object to_python(const at::Tensor& tensor) {
  py::capsule capsule(at::toDLPack(tensor), kDlpackName, &delete_unconsumed_dlpack);
  return py::module_::import("torch.utils.dlpack").attr("from_dlpack")(capsule);
}

// The tensor a Python result stands for: itself, element `element` of a tuple or list, or an
// undefined tensor for None.
at::Tensor from_python(py::object result, const std::string& what, std::size_t element) {
  if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) {
    py::sequence items = result;
    if (items.size() <= element) {
      throw Error(ErrorKind::kOpFailure, fmt::format("{} returned a sequence of {}, no element {}",
                                                     what, items.size(), element));
    }
    result = items[element];
  } else if (element != 0 && !result.is_none()) {
    throw Error(
        ErrorKind::kOpFailure,
        fmt::format("{} returned a {}, not a sequence with an element {}", what,
                    py::str(py::type::of(result).attr("__name__")).cast<std::string>(), element));
  }
  if (result.is_none()) return at::Tensor();
  py::module_ torch = py::module_::import("torch");
  if (!py::isinstance(result, torch.attr("Tensor"))) {
    throw Error(ErrorKind::kOpFailure,
                fmt::format("{} returned a {}, not a tensor", what,
                            py::str(py::type::of(result).attr("__name__")).cast<std::string>()));
  }
  py::object capsule =
      py::module_::import("torch.utils.dlpack").attr("to_dlpack")(result.attr("detach")());
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), kDlpackName));
  if (managed == nullptr) throw py::error_already_set();
  PyCapsule_SetName(capsule.ptr(), kDlpackUsedName);
  return at::fromDLPack(managed);
}

py::object constant_to_python(const PyConstant& value) {
  struct Convert {
    py::object operator()(std::monostate) const { return py::none(); }
    py::object operator()(bool b) const { return py::bool_(b); }
    py::object operator()(int64_t i) const { return py::int_(i); }
    py::object operator()(double d) const { return py::float_(d); }
    py::object operator()(const std::string& s) const { return py::str(s); }
  };
  return std::visit(Convert{}, value);
}

// The value `arg` binds in `args`; an index past the case's inputs is a mistake in the op table.
py::object arg_to_python(const PyArg& arg, const Args& args, const PythonFn& fn) {
  auto checked = [&](std::size_t size, const char* field) {
    if (arg.index >= size) {
      throw Error(ErrorKind::kInternal,
                  fmt::format("python_fn {}: reads Args::{}[{}], the case has {}", to_string(fn),
                              field, arg.index, size));
    }
    return arg.index;
  };
  switch (arg.source) {
    case PyArg::Source::kTensor:
      return to_python(args.t[checked(args.t.size(), "t")]);
    case PyArg::Source::kOptionalTensor:
      if (arg.index >= args.t.size() || !args.t[arg.index].defined()) return py::none();
      return to_python(args.t[arg.index]);
    case PyArg::Source::kInt:
      return py::int_(args.i[checked(args.i.size(), "i")]);
    case PyArg::Source::kFlag:
      return py::bool_(args.i[checked(args.i.size(), "i")] != 0);
    case PyArg::Source::kFloat:
      return py::float_(args.f[checked(args.f.size(), "f")]);
    case PyArg::Source::kIntList: {
      py::list items;
      for (int64_t v : args.lists[checked(args.lists.size(), "lists")]) items.append(py::int_(v));
      return py::tuple(items);
    }
    case PyArg::Source::kConstant:
      return constant_to_python(arg.constant);
  }
  return py::none();
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
  objects->install_triton_allocator = make_triton_allocator_installer();
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
    // Here, not once at import: the allocator is Triton's per thread, and a scope is entered on
    // the thread that then launches the candidate's kernels.
    objects_->install_triton_allocator();
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

std::string PythonProvider::do_find_function(const PythonFn& fn) {
  py::gil_scoped_acquire gil;
  py::object found = attribute_path(objects_->module, fn.name);
  if (!found || !PyCallable_Check(found.ptr())) return "";
  return spec_.module + "." + fn.name;
}

BoundFunction PythonProvider::do_bind_function(const PythonFn& fn, Args& args) {
  py::gil_scoped_acquire gil;
  auto call = std::make_shared<Objects::BoundCall>();
  call->function = attribute_path(objects_->module, fn.name);
  py::list positional;
  for (const auto& arg : fn.args) {
    py::object value = arg_to_python(arg, args, fn);
    if (arg.keyword.empty()) {
      positional.append(value);
    } else {
      call->keywords[py::str(arg.keyword)] = value;
    }
  }
  call->positional = py::tuple(positional);
  const std::string what = spec_.module + "." + fn.name;
  // The Python objects are released with the GIL held, whichever thread drops the last copy.
  std::shared_ptr<Objects::BoundCall> held(call.get(), [call](Objects::BoundCall*) mutable {
    py::gil_scoped_acquire gil;
    call.reset();
  });
  BoundFunction bound;
  bound.call = [held] {
    py::gil_scoped_acquire gil;
    held->function(*held->positional, **held->keywords);
  };
  bound.result = [held, what, element = fn.result] {
    py::gil_scoped_acquire gil;
    return from_python(held->function(*held->positional, **held->keywords), what, element);
  };
  return bound;
}

std::string PythonProvider::failure_message(std::exception_ptr failure) {
  if (std::string pending = std::exchange(pending_failure_, std::string()); !pending.empty()) {
    return pending;
  }
  if (std::string pending = take_pending_python_error(); !pending.empty()) return pending;
  return python_exception_line(failure);
}

}  // namespace caliber
