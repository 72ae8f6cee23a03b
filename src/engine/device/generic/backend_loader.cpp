#include "engine/device/generic/backend_loader.h"

#include <dlfcn.h>
#include <pybind11/embed.h>

#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>

#include "core/error.h"
#include "engine/provider/embedded_python.h"
#include "engine/provider/python_error_text.h"

namespace py = pybind11;

namespace caliber {
namespace {

constexpr std::string_view kPythonPrefix = "python:";

std::mutex& loader_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string& library_slot() {
  static std::string library;
  return library;
}

void import_python_package(const BackendDescriptor& backend, const std::string& module,
                           const std::string& knob) {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  try {
    py::module_::import(module.c_str());
  } catch (const py::error_already_set& e) {
    throw_usage(
        "{}: backend {} is loaded from the Python package '{}', which {} cannot import ({}); "
        "install it into that interpreter (or point CALIBER_PYTHON at one that has it)",
        knob, backend.name, module, embedded_python_executable(), last_traceback_line(e));
  }
}

void open_shared_library(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    throw_usage("--backend-library: '{}' does not exist (accepted: PATH.so or python:MODULE)",
                path);
  }
  // RTLD_GLOBAL: the library's registrations (device guard, allocator, kernels) and any symbols
  // its own extensions expect must be visible process-wide, as when Python imports it.
  if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    const char* why = dlerror();
    throw_usage("--backend-library: '{}' cannot be loaded: {}", path,
                why != nullptr ? why : "unknown dlopen error");
  }
}

}  // namespace

void load_backend(const BackendDescriptor& backend, const std::string& library) {
  std::lock_guard lock(loader_mutex());
  static std::set<std::string> loaded;
  const std::string key = backend.name + "|" + library;
  if (loaded.count(key) != 0) return;
  ensure_embedded_python();
  if (library.rfind(kPythonPrefix, 0) == 0) {
    const std::string module = library.substr(kPythonPrefix.size());
    if (module.empty()) {
      throw_usage("--backend-library: '{}' names no module (accepted: PATH.so or python:MODULE)",
                  library);
    }
    import_python_package(backend, module, "--backend-library");
  } else if (!library.empty()) {
    open_shared_library(library);
  } else if (!backend.python_module.empty()) {
    import_python_package(backend, backend.python_module, "--backend");
  } else if (backend.enumerated_by_torch) {
    throw_usage(
        "--backend-library: backend {} is any out-of-tree PrivateUse1 backend and needs one "
        "(accepted: PATH.so or python:MODULE)",
        backend.name);
  }
  loaded.insert(key);
}

void request_backend_library(const std::string& library) {
  std::lock_guard lock(loader_mutex());
  library_slot() = library;
}

std::string requested_backend_library() {
  std::lock_guard lock(loader_mutex());
  return library_slot();
}

}  // namespace caliber
