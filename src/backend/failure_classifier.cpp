#include "backend/failure_classifier.h"

#include "core/choice.h"

namespace caliber {

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRefused:
      return "refused";
    case Verdict::kFatal:
      return "fatal";
    case Verdict::kPoisoned:
      return "poisoned";
    case Verdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

Verdict FailureClassifier::classify(std::string_view message) const {
  std::string lowered = to_lower(message);
  for (Verdict pass : {Verdict::kFatal, Verdict::kPoisoned, Verdict::kRefused}) {
    for (const auto& wording : wordings_) {
      if (wording.verdict == pass && lowered.find(to_lower(wording.text)) != std::string::npos) {
        return pass;
      }
    }
  }
  return Verdict::kUnknown;
}

}  // namespace caliber
