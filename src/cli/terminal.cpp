#include "cli/terminal.h"

#include <unistd.h>

#include <cstdlib>

namespace caliber {

bool stdout_wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace caliber
