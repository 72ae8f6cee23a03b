#pragma once

#include <string>

namespace caliber {

// The vendor name FlagGems' runtime expects in GEMS_VENDOR for a caliber backend ("nvidia" for
// cuda); empty when FlagGems has no vendor for it (cpu). With GEMS_VENDOR set, FlagGems skips
// its vendor detection, which otherwise runs vendor query commands without a timeout during
// `import flag_gems`.
std::string flaggems_vendor(const std::string& backend_name);

// The environment names FlagGems reads its vendor from, in the order it tries them.
inline constexpr const char* kFlagGemsVendorVariables[] = {"GEMS_VENDOR", "FLAGGEMS_VENDOR",
                                                           "GEMS_BACKEND", "FLAGGEMS_BACKEND"};

}  // namespace caliber
