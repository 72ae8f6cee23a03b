#include "backend/flaggems_vendor.h"

#include <map>

namespace caliber {

std::string flaggems_vendor(const std::string& backend_name) {
  // FlagGems' runtime/backend/_<vendor> folders at the pinned commit.
  static const std::map<std::string, std::string> kVendors = {
      {"cuda", "nvidia"}, {"rocm", "amd"}, {"musa", "mthreads"}, {"ascend", "ascend"}};
  auto it = kVendors.find(backend_name);
  return it == kVendors.end() ? "" : it->second;
}

}  // namespace caliber
