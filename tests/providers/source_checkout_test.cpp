#include "engine/provider/source_checkout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace caliber {
namespace {

TEST(SourceCheckout, FindsTheCommitOfAFileInsideACheckout) {
  // A clone has a .git folder, a linked worktree a .git file; an unpacked tarball neither.
  if (!std::filesystem::exists(std::string(CALIBER_SOURCE_DIR) + "/.git")) GTEST_SKIP();
  const std::string commit = git_commit_of(std::string(CALIBER_SOURCE_DIR) + "/CMakeLists.txt");
  EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{40}"))) << commit;
}

TEST(SourceCheckout, IsEmptyForAnUntrackedFileInsideACheckout) {
  // Like FlagGems unpacked under the git-ignored third_party_fetched/: the outer checkout's
  // commit says nothing about it.
  if (!std::filesystem::exists(std::string(CALIBER_SOURCE_DIR) + "/.git")) GTEST_SKIP();
  const std::string dir = std::string(CALIBER_SOURCE_DIR) + "/build-untracked-probe";
  std::filesystem::create_directories(dir);
  { std::ofstream(dir + "/__init__.py") << "\n"; }
  const std::string commit = git_commit_of(dir + "/__init__.py");
  std::filesystem::remove(dir + "/__init__.py");
  std::filesystem::remove(dir);
  EXPECT_EQ(commit, "");
}

TEST(SourceCheckout, IsEmptyOutsideACheckout) { EXPECT_EQ(git_commit_of("/proc/self"), ""); }

}  // namespace
}  // namespace caliber
