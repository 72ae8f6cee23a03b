#include "engine/provider/source_checkout.h"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace caliber {
namespace {

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// A worktree or submodule has a .git file pointing at its git directory.
fs::path git_dir_of(const fs::path& dot_git) {
  if (fs::is_directory(dot_git)) return dot_git;
  const std::string line = first_line(dot_git);
  const std::string prefix = "gitdir: ";
  if (line.rfind(prefix, 0) != 0) return {};
  fs::path target = line.substr(prefix.size());
  return target.is_absolute() ? target : dot_git.parent_path() / target;
}

std::string resolve_ref(const fs::path& git_dir, const std::string& ref) {
  if (const auto loose = git_dir / ref; fs::exists(loose)) return first_line(loose);
  std::ifstream packed(git_dir / "packed-refs");
  std::string line;
  while (std::getline(packed, line)) {
    if (line.size() > 41 && line.compare(41, std::string::npos, ref) == 0)
      return line.substr(0, 40);
  }
  // A linked worktree keeps the shared refs in the main git directory.
  if (const auto common = git_dir / "commondir"; fs::exists(common)) {
    const fs::path main_dir = first_line(common);
    return resolve_ref(main_dir.is_absolute() ? main_dir : git_dir / main_dir, ref);
  }
  return "";
}

// Whether the checkout's index lists `relative` (a tracked file). Index entries hold each path
// in full, NUL-terminated (index versions 2 and 3; version 4 compresses them and reads as "not
// listed"), so a byte search is enough. Without it an untracked copy inside another checkout
// (FlagGems unpacked under caliber's git-ignored third_party_fetched/) would be named after the
// outer checkout's commit.
bool index_lists(const fs::path& git_dir, const fs::path& relative) {
  std::ifstream in(git_dir / "index", std::ios::binary);
  if (!in) return false;
  const std::string index((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string entry = relative.generic_string() + '\0';
  for (size_t at = index.find(entry); at != std::string::npos; at = index.find(entry, at + 1)) {
    // An entry's path starts right after its fixed-size header, so a hit must not be the tail of
    // a longer path ("x/__init__.py" inside "y/x/__init__.py").
    if (at == 0 || index[at - 1] != '/') return true;
  }
  return false;
}

}  // namespace

std::string git_commit_of(const std::string& path) {
  std::error_code error;
  const fs::path target = fs::absolute(path, error);
  if (error) return "";
  fs::path dir = fs::is_directory(target) ? target : target.parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    const fs::path dot_git = dir / ".git";
    if (fs::exists(dot_git)) {
      const fs::path git_dir = git_dir_of(dot_git);
      if (git_dir.empty()) return "";
      if (!fs::is_directory(target) && !index_lists(git_dir, target.lexically_relative(dir))) {
        return "";
      }
      const std::string head = first_line(git_dir / "HEAD");
      const std::string prefix = "ref: ";
      return head.rfind(prefix, 0) == 0 ? resolve_ref(git_dir, head.substr(prefix.size())) : head;
    }
    if (dir == dir.root_path()) break;
  }
  return "";
}

}  // namespace caliber
