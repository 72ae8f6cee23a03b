#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace caliber {

// What went wrong decides what happens next: a usage error stops before device work (exit 2),
// an op failure becomes a FAILED row and the run goes on, a device-fatal error stops the run
// with the artifacts written so far intact (exit 3).
enum class ErrorKind { kUsage, kOpFailure, kDeviceFatal, kInternal };

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

template <typename... Args>
[[noreturn]] void throw_usage(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(ErrorKind::kUsage, fmt::format(format, std::forward<Args>(args)...));
}

// Exit codes shared by every subcommand: 0 all ok, 1 some rows failed, 2 bad input,
// 3 device fatal, 4 internal error.
int exit_code_for(ErrorKind kind);

// One line for a table cell or a CSV field: the first line of a runtime's error text, with the
// error name torch's CUDA messages only give further down ("Search for `cudaError...'"), and no
// C++ stack trace.
std::string error_summary(const std::string& text);

}  // namespace caliber
