#include "engine/candidate_call_failure.h"

#include <fmt/format.h>

#include <exception>

#include "core/error.h"

namespace caliber {

void rethrow_candidate_call_failure(Provider& candidate, const FailureClassifier& classifier,
                                    std::string_view call) {
  std::exception_ptr failure = std::current_exception();
  try {
    std::rethrow_exception(failure);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    if (classifier.classify(e.what()) == CaptureVerdict::kFatal) {
      throw Error(ErrorKind::kDeviceFatal, fmt::format("device failure in {}: {}", call, e.what()));
    }
  } catch (...) {
  }
  candidate.rethrow_candidate_failure(failure);
}

}  // namespace caliber
