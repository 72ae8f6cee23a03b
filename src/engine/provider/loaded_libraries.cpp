#include "engine/provider/loaded_libraries.h"

#include <fstream>
#include <set>
#include <sstream>

namespace caliber {

std::vector<std::string> loaded_library_files(const std::string& name_prefix) {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> seen_files;  // "device inode"
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range, perms, offset, device, inode, path;
    fields >> range >> perms >> offset >> device >> inode >> path;
    if (path.empty() || inode == "0") continue;
    const std::string base = path.substr(path.rfind('/') + 1);
    if (base.rfind(name_prefix, 0) != 0) continue;
    if (seen_files.insert(device + " " + inode).second) paths.push_back(path);
  }
  return paths;
}

}  // namespace caliber
