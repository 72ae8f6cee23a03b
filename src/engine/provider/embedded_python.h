#pragma once

#include <string>

namespace caliber {

// The process's one CPython interpreter, shared by every python: provider. It is started on
// first use and kept until shutdown_embedded_python() or the end of the process.
//
// It runs as the interpreter torch came from (CALIBER_PYTHON at build time, or the
// CALIBER_PYTHON environment variable): that interpreter's virtualenv and site-packages, with
// PYTHONPATH's entries first (an embedded interpreter ignores PYTHONPATH by itself). `torch` is
// imported before anything else and must resolve to the libtorch already in the process.
//
// After start the calling thread does not hold the GIL: C++ work (timing, kernels called through
// the dispatcher) runs without it, and code that calls Python takes it (py::gil_scoped_acquire).
// Throws a usage Error when the interpreter or torch cannot be loaded.
void ensure_embedded_python();

// Finalizes the interpreter, if it runs; call it after the last python: provider is gone and
// before returning from main. Finalizing drops every torch.library registration while Python
// can still run its finalizers, and runs Python's atexit hooks (FlagGems' logging, Triton's
// caches). Without the call the interpreter is left running at exit, which is safe once no
// provider is alive. Python cannot start again in this process afterwards.
void shutdown_embedded_python();

// The interpreter executable the embedded Python impersonates (for messages).
std::string embedded_python_executable();

}  // namespace caliber
