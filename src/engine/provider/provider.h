#pragma once

#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace caliber {

class DispatchSnapshot;

// What the dispatcher says about a candidate for one op's ATen operators on one device.
struct Coverage {
  std::vector<std::string> overridden;      // inside the scope another kernel runs
  std::vector<std::string> not_overridden;  // the candidate leaves these to ATen
  std::vector<std::string> unknown;         // names this torch's dispatcher does not know
  // Outside the scope the kernel is no longer the one from before the candidate was loaded: a
  // registration outlived its scope, so a "baseline" would time the candidate.
  std::vector<std::string> baseline_changed;

  bool covered() const { return !overridden.empty(); }
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
