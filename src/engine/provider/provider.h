#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ops/op_def.h"

namespace caliber {

class DispatchSnapshot;

// A candidate's own function for an op (OpDef::python_fn) bound to one case's inputs, which were
// converted once, outside any timed region.
struct BoundFunction {
  std::function<void()> call;          // what a timer times: runs the function, drops its result
  std::function<at::Tensor()> result;  // runs it and returns its result (see bind_function)
};

// What the dispatcher says about a candidate for one op's ATen operators on one device.
struct Coverage {
  std::vector<std::string> overridden;      // inside the scope another kernel runs
  std::vector<std::string> not_overridden;  // the candidate leaves these to ATen
  std::vector<std::string> unknown;         // names this torch's dispatcher does not know
  // Outside the scope the kernel is no longer the one from before the candidate was loaded: a
  // registration outlived its scope, so a "baseline" would time the candidate.
  std::vector<std::string> baseline_changed;
  // For an op that declares a Python function (OpDef::python_fn), that function alone covers it:
  // its composite run under the scope would time the candidate's pieces, not its fused kernel.
  bool function_declared = false;
  std::string function;  // "flag_gems.silu_and_mul" when the candidate has it

  bool covered() const { return function_declared ? !function.empty() : !overridden.empty(); }
  bool baseline_intact() const { return baseline_changed.empty(); }
};

// A candidate operator library that changes what ATen calls do through PyTorch's dispatcher,
// inside a scope: between enter() and exit() the candidate's kernels run, outside ATen's.
// Made by make_provider(); used through CandidateScope / with_candidate() and covers().
class Provider {
 public:
  virtual ~Provider();
  Provider(const Provider&) = delete;
  Provider& operator=(const Provider&) = delete;

  // The spec as given (`python:flag_gems`), for rows and the identity's `provider`.
  const std::string& spec() const { return spec_; }
  // For the identity's `provider_version`: what exactly was loaded.
  virtual std::string version() const = 0;

  // Asks the dispatcher which of `aten_ops` ("aten::add.Tensor") the candidate overrides for
  // `device_type` ("cuda", "cpu"), by entering and leaving the scope once. Throws an op failure
  // when the scope cannot be entered.
  Coverage covers(const std::vector<std::string>& aten_ops, const std::string& device_type);
  // The same for `op`'s ATen operators and, when `op` declares a Python function, whether the
  // candidate has it (Coverage::function).
  Coverage covers_op(const OpDef& op, const std::string& device_type);

  // The candidate's function `fn` bound to `args`, one case's inputs: only for a function
  // covers_op() found. Its result is the returned tensor, the first tensor of a tuple, or undefined
  // for None. Calls hold the interpreter only while Python runs; a Python exception leaves as such
  // (rethrow_candidate_failure words it). Called outside the scope, as FlagGems' benchmark calls
  // its gems_op.
  BoundFunction bind_function(const PythonFn& fn, Args& args);

  // Rethrows `failure`, an exception that left a candidate measurement, as what the run should
  // report: a failure inside the candidate's own code (a Python exception) becomes
  // Error(kOpFailure) with a one-line message; anything else is rethrown unchanged.
  [[noreturn]] void rethrow_candidate_failure(std::exception_ptr failure);

 protected:
  // `pristine` is the dispatcher before the candidate was loaded.
  Provider(std::string spec, std::unique_ptr<DispatchSnapshot> pristine);

  virtual void enter() = 0;
  // Leaves the scope. `unwinding`: a measurement failed; keep what explains the failure and do
  // not throw. Otherwise a failure to leave throws Error(kOpFailure).
  virtual void exit(bool unwinding) = 0;
  // The candidate's own one-line account of `failure`, which just left a measurement; empty when
  // the failure did not come from the candidate's code.
  virtual std::string failure_message(std::exception_ptr failure) {
    (void)failure;
    return "";
  }
  // The qualified name of the candidate's function `fn` ("flag_gems.silu_and_mul"), or "" when
  // it has none (every library: candidate).
  virtual std::string do_find_function(const PythonFn& fn) {
    (void)fn;
    return "";
  }
  virtual BoundFunction do_bind_function(const PythonFn& fn, Args& args);

 private:
  friend class CandidateScope;
  std::string spec_;
  std::unique_ptr<DispatchSnapshot> pristine_;
  bool inside_ = false;
};

// Enters the candidate's scope for one measurement; leaves it on close() (which throws when
// leaving fails) or on destruction (which never throws). Scopes do not nest.
class CandidateScope {
 public:
  explicit CandidateScope(Provider& provider);
  ~CandidateScope();
  CandidateScope(const CandidateScope&) = delete;
  CandidateScope& operator=(const CandidateScope&) = delete;

  void close();

 private:
  Provider& provider_;
  bool open_ = true;
};

// Runs `measure` with the candidate's kernels in force and returns its result. A failure of the
// candidate's code comes out as Error(kOpFailure) (see Provider::rethrow_candidate_failure).
template <typename Measure>
auto with_candidate(Provider& provider, Measure&& measure) -> std::invoke_result_t<Measure> {
  try {
    CandidateScope scope(provider);
    if constexpr (std::is_void_v<std::invoke_result_t<Measure>>) {
      std::forward<Measure>(measure)();
      scope.close();
    } else {
      auto result = std::forward<Measure>(measure)();
      scope.close();
      return result;
    }
  } catch (...) {
    provider.rethrow_candidate_failure(std::current_exception());
  }
}

// Loads the candidate named by `spec` (`python:MODULE[:CONTEXT]` or `library:PATH.so`). Throws a
// usage Error for a bad spec, a module that cannot be imported or a library that cannot be
// opened or lacks the provider functions.
std::unique_ptr<Provider> make_provider(const std::string& spec);

}  // namespace caliber
