#pragma once

#include <string>

#include "core/error.h"

namespace caliber {

// A file could not be written (full disk, read-only folder, quota). It ends `caliber run` and
// `caliber batch` with one line naming the file and the cause and exit code 5; the files written
// before it stay valid (a line cut short is taken back, a whole file is replaced or left as it
// was), and the same command resumes once there is room.
class WriteFailure : public Error {
 public:
  explicit WriteFailure(const std::string& message) : Error(ErrorKind::kInternal, message) {}
};

inline constexpr int kWriteFailureExitCode = 5;

// Throws WriteFailure: "cannot write PATH: No space left on device (make room or choose another
// --out, then run the same command again)" for errno `error`.
[[noreturn]] void throw_write_failure(const std::string& path, int error);

}  // namespace caliber
