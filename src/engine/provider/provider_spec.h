#pragma once

#include <string>

namespace caliber {

// What `--candidate` names, parsed but not yet loaded.
struct ProviderSpec {
  enum class Kind { kPython, kLibrary };
  Kind kind = Kind::kPython;
  std::string text;     // as given, for rows and the identity
  std::string module;   // python: the module to import
  std::string context;  // python: the callable returning a context manager; empty: the default
  std::string path;     // library: the shared object
};

// Parses `python:MODULE[:CONTEXT]` or `library:PATH`; throws a usage Error naming the spec and
// the accepted forms. Nothing is imported or opened here.
ProviderSpec parse_provider_spec(const std::string& text);

}  // namespace caliber
