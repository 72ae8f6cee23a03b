#include "engine/provider/provider.h"

#include <fmt/format.h>

#include "core/error.h"
#include "engine/provider/dispatch_snapshot.h"
#include "engine/provider/library_provider.h"
#include "engine/provider/provider_spec.h"
#include "engine/provider/python_provider.h"

namespace caliber {

Provider::Provider(std::string spec, std::unique_ptr<DispatchSnapshot> pristine)
    : spec_(std::move(spec)), pristine_(std::move(pristine)) {}

Provider::~Provider() = default;

Coverage Provider::covers(const std::vector<std::string>& aten_ops,
                          const std::string& device_type) {
  if (inside_) throw Error(ErrorKind::kInternal, "covers() called inside a candidate scope");
  std::vector<std::optional<std::string>> outside;
  for (const auto& op : aten_ops) outside.push_back(kernel_identity(op, device_type));
  const auto inside = with_candidate(*this, [&] {
    std::vector<std::optional<std::string>> kernels;
    for (const auto& op : aten_ops) kernels.push_back(kernel_identity(op, device_type));
    return kernels;
  });

  Coverage coverage;
  for (std::size_t i = 0; i < aten_ops.size(); ++i) {
    const auto& op = aten_ops[i];
    if (!outside[i]) {
      coverage.unknown.push_back(op);
      continue;
    }
    (inside[i] != outside[i] ? coverage.overridden : coverage.not_overridden).push_back(op);
    // An operator registered after the snapshot (a custom op) has no pristine kernel; then the
    // kernel from just before this toggle is the reference.
    const auto pristine = pristine_->kernel(op, device_type);
    if (kernel_identity(op, device_type) != (pristine ? pristine : outside[i])) {
      coverage.baseline_changed.push_back(op);
    }
  }
  return coverage;
}

Coverage Provider::covers_op(const OpDef& op, const std::string& device_type) {
  Coverage coverage = covers(op.aten(), device_type);
  if (op.python_fn()) {
    coverage.function_declared = true;
    coverage.function = do_find_function(*op.python_fn());
  }
  return coverage;
}

BoundFunction Provider::bind_function(const PythonFn& fn, Args& args) {
  if (do_find_function(fn).empty()) {
    throw Error(ErrorKind::kInternal, fmt::format("{}: no function {} to bind", spec_, fn.name));
  }
  return do_bind_function(fn, args);
}

BoundFunction Provider::do_bind_function(const PythonFn& fn, Args& args) {
  (void)args;
  throw Error(ErrorKind::kInternal, fmt::format("{}: cannot call {}", spec_, fn.name));
}

void Provider::rethrow_candidate_failure(std::exception_ptr failure) {
  const std::string message = failure_message(failure);
  if (!message.empty()) throw Error(ErrorKind::kOpFailure, fmt::format("{}: {}", spec_, message));
  std::rethrow_exception(failure);
}

CandidateScope::CandidateScope(Provider& provider) : provider_(provider) {
  if (provider_.inside_) {
    throw Error(ErrorKind::kInternal,
                fmt::format("{}: candidate scopes do not nest", provider_.spec()));
  }
  provider_.enter();
  provider_.inside_ = true;
}

CandidateScope::~CandidateScope() {
  if (!open_) return;
  open_ = false;
  provider_.inside_ = false;
  provider_.exit(/*unwinding=*/true);
}

void CandidateScope::close() {
  if (!open_) return;
  open_ = false;
  provider_.inside_ = false;
  provider_.exit(/*unwinding=*/false);
}

std::unique_ptr<Provider> make_provider(const std::string& text) {
  ProviderSpec spec = parse_provider_spec(text);
  auto pristine = std::make_unique<DispatchSnapshot>(DispatchSnapshot::take());
  switch (spec.kind) {
    case ProviderSpec::Kind::kPython:
      return std::make_unique<PythonProvider>(std::move(spec), std::move(pristine));
    case ProviderSpec::Kind::kLibrary:
      return std::make_unique<LibraryProvider>(std::move(spec), std::move(pristine));
  }
  throw Error(ErrorKind::kInternal, fmt::format("--candidate: unhandled kind in '{}'", text));
}

}  // namespace caliber
