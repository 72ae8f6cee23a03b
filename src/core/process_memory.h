#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace caliber {

inline constexpr double kMiB = 1024.0 * 1024.0;  // bytes in a MiB, for printing sizes

// A process's resident set in bytes, from /proc/<pid>/statm; `pid` 0 is this process. nullopt
// when it cannot be read (the process has ended, or this is not Linux).
std::optional<int64_t> resident_set_bytes(pid_t pid = 0);

}  // namespace caliber
