#include "core/data_paths.h"

#include <cstdlib>

namespace caliber {

std::filesystem::path data_dir() {
  if (const char* dir = std::getenv("CALIBER_DATA_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return CALIBER_SOURCE_DIR;
}

std::filesystem::path shapes_dir() { return data_dir() / "shapes"; }
std::filesystem::path default_dismiss_list() { return data_dir() / "ops" / "dismiss.yaml"; }
std::filesystem::path default_capture_deny_list() {
  return data_dir() / "ops" / "capture_deny.yaml";
}

std::filesystem::path default_op_costs() { return data_dir() / "ops" / "op_costs.csv"; }

}  // namespace caliber
