#include "core/process_memory.h"

#include <unistd.h>

#include <fstream>
#include <string>

namespace caliber {

std::optional<int64_t> resident_set_bytes(pid_t pid) {
  std::ifstream statm("/proc/" + (pid == 0 ? std::string("self") : std::to_string(pid)) + "/statm");
  int64_t size = 0;
  int64_t resident = 0;
  if (!(statm >> size >> resident)) return std::nullopt;
  return resident * static_cast<int64_t>(sysconf(_SC_PAGE_SIZE));
}

}  // namespace caliber
