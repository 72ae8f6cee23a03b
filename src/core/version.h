#pragma once

namespace caliber {

// `git describe` of the checkout the binary was built from, refreshed on every build.
const char* harness_version();

}  // namespace caliber
