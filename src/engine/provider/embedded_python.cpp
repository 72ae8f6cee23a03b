#include "engine/provider/embedded_python.h"

#include <pybind11/embed.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>

#include "core/error.h"
#include "engine/provider/loaded_libraries.h"
#include "engine/provider/python_error_text.h"

namespace py = pybind11;

namespace caliber {
namespace {

std::vector<std::string> split_path_list(const char* text) {
  std::vector<std::string> entries;
  if (text == nullptr) return entries;
  std::istringstream stream(text);
  std::string entry;
  while (std::getline(stream, entry, ':')) {
    if (!entry.empty()) entries.push_back(entry);
  }
  return entries;
}

class Interpreter {
 public:
  Interpreter() {
    const std::string executable = embedded_python_executable();
    if (!std::filesystem::exists(executable)) {
      throw_usage(
          "embedded Python: '{}' does not exist (set CALIBER_PYTHON to the python that has torch)",
          executable);
    }
    PyConfig config;
    // Isolated: no user site, no environment; what would be taken from the environment is set
    // explicitly below, so a run does not depend on the shell it was started from.
    PyConfig_InitIsolatedConfig(&config);
    // caliber's own signal handling (Ctrl-C, timeouts) stays in charge.
    config.install_signal_handlers = 0;
    // Naming the venv's python as the program makes CPython find its pyvenv.cfg and with it the
    // venv's site-packages, exactly as that python would.
    PyConfig_SetBytesString(&config, &config.program_name, executable.c_str());
    try {
      py::initialize_interpreter(&config, 0, nullptr, /*add_program_dir_to_path=*/false);
    } catch (const std::exception& e) {
      PyConfig_Clear(&config);
      throw_usage("embedded Python: cannot start as '{}': {}", executable, e.what());
    }
    PyConfig_Clear(&config);
    std::string failure;
    try {
      prepare();
    } catch (const py::error_already_set& e) {
      failure = last_traceback_line(e);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    released_ = PyEval_SaveThread();
    if (!failure.empty()) {
      // The interpreter stays (CPython cannot start twice in one process) but is never used.
      throw Error(ErrorKind::kUsage, failure);
    }
  }

  ~Interpreter() {
    PyEval_RestoreThread(released_);
    // Candidates' torch.library registrations must go while the interpreter can still run
    // their finalizers; collecting first drops the ones only a cycle kept alive.
    try {
      py::module_::import("gc").attr("collect")();
    } catch (const py::error_already_set&) {
    }
    py::finalize_interpreter();
  }

 private:
  static void prepare() {
    py::list path = py::module_::import("sys").attr("path");
    const auto entries = split_path_list(std::getenv("PYTHONPATH"));
    for (std::size_t i = 0; i < entries.size(); ++i) path.attr("insert")(i, entries[i]);
    try {
      py::module_::import("torch");
    } catch (const py::error_already_set& e) {
      throw Error(ErrorKind::kUsage, "embedded Python (" + embedded_python_executable() +
                                         "): cannot import torch: " + last_traceback_line(e));
    }
    // Two libtorch copies would mean two dispatchers: the candidate's registrations would never
    // reach the ATen calls caliber makes.
    const auto copies = loaded_library_files("libtorch_cpu");
    if (copies.size() > 1) {
      std::string list;
      for (const auto& copy : copies) list += (list.empty() ? "" : ", ") + copy;
      throw Error(ErrorKind::kUsage, "embedded Python loaded a second libtorch (" + list +
                                         "): build caliber against the torch of " +
                                         embedded_python_executable());
    }
  }

  PyThreadState* released_ = nullptr;
};

}  // namespace

std::string embedded_python_executable() {
  if (const char* chosen = std::getenv("CALIBER_PYTHON"); chosen != nullptr && *chosen != 0) {
    return chosen;
  }
  return CALIBER_EMBEDDED_PYTHON;
}

namespace {

struct InterpreterSlot {
  std::mutex mutex;
  // Deliberately never destroyed by a static destructor: by then the static objects of libraries
  // that Python loaded later (torch._C, numpy) are already gone, and finalizing over them
  // crashes. shutdown_embedded_python() finalizes at a safe time; without it the interpreter is
  // simply left running when the process exits.
  Interpreter* interpreter = nullptr;
  std::string start_failure;
  bool shut_down = false;
};

InterpreterSlot& slot() {
  static auto* the_slot = new InterpreterSlot;
  return *the_slot;
}

}  // namespace

void ensure_embedded_python() {
  auto& the_slot = slot();
  std::lock_guard lock(the_slot.mutex);
  if (the_slot.interpreter != nullptr) return;
  if (the_slot.shut_down) {
    throw Error(ErrorKind::kInternal, "the embedded Python was shut down and cannot start again");
  }
  if (!the_slot.start_failure.empty()) throw Error(ErrorKind::kUsage, the_slot.start_failure);
  try {
    the_slot.interpreter = new Interpreter();
  } catch (const Error& e) {
    the_slot.start_failure = e.what();
    throw;
  }
}

void shutdown_embedded_python() {
  auto& the_slot = slot();
  std::lock_guard lock(the_slot.mutex);
  delete std::exchange(the_slot.interpreter, nullptr);
  the_slot.shut_down = true;
}

}  // namespace caliber
