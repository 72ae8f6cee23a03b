#pragma once

// The files under a source folder, for the tests that read src/ as text. dirent, not
// std::filesystem: libtorch's exported copies of std::filesystem have crashed directory walks in
// binaries that link it (CMakeLists.txt, add_link_options).

#include <dirent.h>

#include <regex>
#include <string>
#include <vector>

namespace caliber::testing {

// Every file below `dir` whose name matches `name_pattern`, recursively.
inline void list_source_files(const std::string& dir, const std::regex& name_pattern,
                              std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) {
      list_source_files(path, name_pattern, out);
    } else if (std::regex_search(name, name_pattern)) {
      out.push_back(path);
    }
  }
  closedir(d);
}

}  // namespace caliber::testing
