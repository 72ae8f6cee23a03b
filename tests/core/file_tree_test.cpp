#include "core/file_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/atomic_file.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("caliber_file_tree_" + name + "_" + std::to_string(::getpid()));
  std::error_code ec;
  remove_tree(dir, ec);
  fs::create_directories(dir);
  return dir;
}

TEST(RemoveTree, RemovesANestedTreeAndCountsItsEntries) {
  fs::path root = fresh_dir("nested") / "op";
  write_file_atomic(root / "results.jsonl", "{}\n");
  write_file_atomic(root / "dtypes" / "float16" / "run.log", "x\n");
  write_file_atomic(root / "dtypes" / "float32" / "attempt-1.log", "x\n");
  std::error_code ec;
  // 3 files, 4 directories (op, dtypes, float16, float32).
  EXPECT_EQ(remove_tree(root, ec), 7u);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_FALSE(fs::exists(root));
  EXPECT_TRUE(fs::exists(root.parent_path()));
}

TEST(RemoveTree, RemovesALinkNotWhatItPointsTo) {
  fs::path dir = fresh_dir("links");
  write_file_atomic(dir / "shard" / "ops" / "mm" / "results.jsonl", "{}\n");
  fs::create_directories(dir / "ops.old");
  fs::create_directory_symlink(fs::path("..") / "shard" / "ops" / "mm", dir / "ops.old" / "mm");
  std::error_code ec;
  EXPECT_EQ(remove_tree(dir / "ops.old", ec), 2u);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_TRUE(fs::exists(dir / "shard" / "ops" / "mm" / "results.jsonl"));
  remove_tree(dir, ec);
}

TEST(RemoveTree, AMissingRootRemovesNothingAndIsNoError) {
  fs::path dir = fresh_dir("missing");
  std::error_code ec = std::make_error_code(std::errc::io_error);
  EXPECT_EQ(remove_tree(dir / "absent", ec), 0u);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_EQ(remove_tree(dir, ec), 1u);
}

TEST(RemoveTree, RemovesAPlainFile) {
  fs::path dir = fresh_dir("file");
  write_file_atomic(dir / "a.txt", "a");
  std::error_code ec;
  EXPECT_EQ(remove_tree(dir / "a.txt", ec), 1u);
  EXPECT_FALSE(fs::exists(dir / "a.txt"));
  remove_tree(dir, ec);
}

}  // namespace
}  // namespace caliber
