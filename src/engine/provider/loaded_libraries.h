#pragma once

#include <string>
#include <vector>

namespace caliber {

// The distinct files mapped into this process whose name starts with `name_prefix`
// ("libtorch_cpu"), told apart by device and inode so that one file reached through two paths
// counts once. Empty where /proc/self/maps does not exist.
std::vector<std::string> loaded_library_files(const std::string& name_prefix);

}  // namespace caliber
