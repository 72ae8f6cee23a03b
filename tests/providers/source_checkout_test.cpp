#include "engine/provider/source_checkout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

namespace caliber {
namespace {

TEST(SourceCheckout, FindsTheCommitOfAFileInsideACheckout) {
  // A clone has a .git folder, a linked worktree a .git file; an unpacked tarball neither.
  if (!std::filesystem::exists(std::string(CALIBER_SOURCE_DIR) + "/.git")) GTEST_SKIP();
  const std::string commit = git_commit_of(std::string(CALIBER_SOURCE_DIR) + "/CMakeLists.txt");
  EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{40}"))) << commit;
}

TEST(SourceCheckout, IsEmptyOutsideACheckout) { EXPECT_EQ(git_commit_of("/proc/self"), ""); }

}  // namespace
}  // namespace caliber
