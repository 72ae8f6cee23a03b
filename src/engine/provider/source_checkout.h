#pragma once

#include <string>

namespace caliber {

// The commit checked out in the git work tree that holds `path` (a file or folder), read from
// .git without running git; empty when `path` is not in a git work tree.
std::string git_commit_of(const std::string& path);

}  // namespace caliber
