#pragma once

#include <memory>
#include <string>

#include "engine/provider/provider.h"
#include "engine/provider/provider_spec.h"

namespace caliber {

// `python:MODULE[:CONTEXT]`: a module imported into the embedded interpreter; the candidate's
// scope is a context manager made by a callable of the module: CONTEXT when given, else the
// module's `caliber_context`, else its `use_gems` (so `python:flag_gems` enters
// `flag_gems.use_gems()`). A fresh context manager is made for every scope. An op declaring a
// Python function (OpDef::python_fn) is covered by the module's function of that name.
class PythonProvider final : public Provider {
 public:
  // Throws a usage Error when the module cannot be imported or has no such callable.
  PythonProvider(ProviderSpec spec, std::unique_ptr<DispatchSnapshot> pristine);
  ~PythonProvider() override;

  // "MODULE __version__ (git COMMIT)", the parts that are known.
  std::string version() const override;

 protected:
  void enter() override;
  void exit(bool unwinding) override;
  std::string failure_message(std::exception_ptr failure) override;
  // A callable attribute of the module at `fn`'s dotted name.
  std::string do_find_function(const PythonFn& fn) override;
  // Tensors cross as DLPack capsules (torch's Python API is not linked into caliber): the same
  // memory, so in-place writes of the function land in the case's tensors.
  BoundFunction do_bind_function(const PythonFn& fn, Args& args) override;

 private:
  struct Objects;  // Python objects, touched only with the GIL held
  ProviderSpec spec_;
  std::unique_ptr<Objects> objects_;
  std::string version_;
  std::string pending_failure_;  // the Python exception that ended the last measurement
};

}  // namespace caliber
