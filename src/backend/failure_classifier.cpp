#include "backend/failure_classifier.h"

#include "core/choice.h"

namespace caliber {

const char* to_string(CaptureVerdict verdict) {
  switch (verdict) {
    case CaptureVerdict::kRefused:
      return "refused";
    case CaptureVerdict::kFatal:
      return "fatal";
    case CaptureVerdict::kPoisoned:
      return "poisoned";
    case CaptureVerdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

CaptureVerdict FailureClassifier::classify(std::string_view message) const {
  std::string lowered = to_lower(message);
  for (CaptureVerdict pass :
       {CaptureVerdict::kFatal, CaptureVerdict::kPoisoned, CaptureVerdict::kRefused}) {
    for (const auto& wording : wordings_) {
      if (wording.verdict == pass && lowered.find(to_lower(wording.text)) != std::string::npos) {
        return pass;
      }
    }
  }
  return CaptureVerdict::kUnknown;
}

}  // namespace caliber
