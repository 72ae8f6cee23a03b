#include "engine/provider/provider_spec.h"

#include <regex>

#include "core/error.h"

namespace caliber {
namespace {

constexpr const char* kAccepted = "python:MODULE[:CONTEXT] or library:PATH.so";

bool is_dotted_identifier(const std::string& text) {
  static const std::regex kDotted(R"([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)");
  return std::regex_match(text, kDotted);
}

}  // namespace

ProviderSpec parse_provider_spec(const std::string& text) {
  ProviderSpec spec;
  spec.text = text;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    throw_usage("--candidate: '{}' names no provider kind (accepted: {})", text, kAccepted);
  }
  const std::string kind = text.substr(0, colon);
  const std::string rest = text.substr(colon + 1);
  if (kind == "python") {
    spec.kind = ProviderSpec::Kind::kPython;
    const auto second = rest.find(':');
    spec.module = rest.substr(0, second);
    if (second != std::string::npos) spec.context = rest.substr(second + 1);
    if (!is_dotted_identifier(spec.module)) {
      throw_usage("--candidate: '{}' is not a Python module name (accepted: {})", spec.module,
                  kAccepted);
    }
    if (second != std::string::npos && !is_dotted_identifier(spec.context)) {
      throw_usage("--candidate: '{}' is not a callable's name in module {} (accepted: {})",
                  spec.context, spec.module, kAccepted);
    }
  } else if (kind == "library") {
    spec.kind = ProviderSpec::Kind::kLibrary;
    spec.path = rest;
    if (spec.path.empty()) {
      throw_usage("--candidate: '{}' names no library path (accepted: {})", text, kAccepted);
    }
  } else {
    throw_usage("--candidate: '{}' is not a provider kind (accepted: {})", kind, kAccepted);
  }
  return spec;
}

}  // namespace caliber
