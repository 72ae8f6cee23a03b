#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// What a failed graph capture (or any device error) means for the measurement.
enum class CaptureVerdict {
  kRefused,   // the op cannot be captured: fall back to the direct timer for this shape
  kFatal,     // the kernel failed on the device: re-raise, never report a latency
  kPoisoned,  // the context is unusable after the attempt: stop the op (CAPTURE_POISONED)
  kUnknown,   // no wording matched: treated as an ordinary op failure
};

const char* to_string(CaptureVerdict verdict);

// A backend's wording table: substrings of its runtime's error messages and what they mean.
// Checked in order, fatal wordings first, so "illegal memory access ... during capture" is fatal.
struct Wording {
  std::string text;
  CaptureVerdict verdict;
};

class FailureClassifier {
 public:
  explicit FailureClassifier(std::vector<Wording> wordings) : wordings_(std::move(wordings)) {}
  CaptureVerdict classify(std::string_view message) const;
  const std::vector<Wording>& wordings() const { return wordings_; }

 private:
  std::vector<Wording> wordings_;
};

}  // namespace caliber
