#include "core/write_failure.h"

#include <fmt/format.h>

#include <cstring>

namespace caliber {

void throw_write_failure(const std::string& path, int error) {
  throw WriteFailure(fmt::format(
      "cannot write {}: {} (make room or choose another --out, then run the same command again)",
      path, std::strerror(error)));
}

}  // namespace caliber
