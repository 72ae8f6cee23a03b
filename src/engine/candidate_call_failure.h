#pragma once

#include <string_view>

#include "backend/failure_classifier.h"
#include "engine/provider/provider.h"

namespace caliber {

// Rethrows the exception being handled, which left one of the candidate's own calls made outside
// every timer (its function's verification or warm call). A device failure in the backend's
// wording (an illegal address, a device-side assert) leaves the context unusable: it becomes
// Error(kDeviceFatal) naming `call`, so the run stops on it instead of failing later, in a cleanup
// that would meet the same sticky error and name only itself. Anything else goes through
// Provider::rethrow_candidate_failure.
[[noreturn]] void rethrow_candidate_call_failure(Provider& candidate,
                                                 const FailureClassifier& classifier,
                                                 std::string_view call);

}  // namespace caliber
