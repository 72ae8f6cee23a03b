#include "core/flaggems_mode.h"

namespace caliber {

std::string flaggems_mode_name(const std::string& timer) {
  if (timer == "graph") return "cudagraph";
  if (timer == "direct" || timer == "batch" || timer == "kernel") return "kernel";
  if (timer == "host") return "operator";
  return timer;
}

bool flaggems_mode_knobs(const std::string& mode, FlagGemsModeKnobs& out) {
  if (mode == "kernel") {
    // do_bench: events around each call with triton's 256 MB cache flush before it
    // (docs/flaggems.md compares the two this way).
    out = {"direct", "cold", "256", "write"};
    return true;
  }
  if (mode == "cudagraph") {
    out = {"graph", "", "", ""};
    return true;
  }
  if (mode == "operator") {
    out = {"host", "", "", ""};
    return true;
  }
  return false;
}

const char* flaggems_modes_accepted() {
  return "kernel (--timer direct --cache cold --flush-mb 256 --flush-method write), cudagraph "
         "(--timer graph), operator (--timer host)";
}

}  // namespace caliber
