#include "core/file_tree.h"

#include <ftw.h>
#include <stdio.h>

#include <cerrno>

namespace caliber {
namespace {

// nftw's callback takes no user data: the walk in progress keeps its tally here.
struct Removal {
  std::uintmax_t removed = 0;
  int first_errno = 0;
};
thread_local Removal* current = nullptr;

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  if (::remove(path) == 0) {
    ++current->removed;
  } else if (current->first_errno == 0) {
    current->first_errno = errno;
  }
  return 0;  // keep going: what can be removed is removed
}

}  // namespace

std::uintmax_t remove_tree(const std::filesystem::path& root, std::error_code& ec) {
  ec.clear();
  Removal removal;
  current = &removal;
  // Children before their directory (FTW_DEPTH); links not followed (FTW_PHYS); at most 16
  // directories open at once.
  int walked = ::nftw(root.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  current = nullptr;
  if (walked != 0 && errno != ENOENT && removal.first_errno == 0) removal.first_errno = errno;
  if (removal.first_errno != 0) ec = std::error_code(removal.first_errno, std::generic_category());
  return removal.removed;
}

}  // namespace caliber
