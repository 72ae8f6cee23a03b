#include "core/parsed_file_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/op_list.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

int loads = 0;

std::string counted_load(const fs::path& path) {
  ++loads;
  return read_file(path);
}

fs::path fresh_file(const std::string& name, const std::string& text) {
  fs::path path = fs::temp_directory_path() / (name + "." + std::to_string(::getpid()));
  std::ofstream(path) << text;
  return path;
}

TEST(ParsedFileCache, ParsesAnUnchangedFileOnce) {
  fs::path path = fresh_file("cache-once", "a");
  loads = 0;
  auto first = cached_parse<std::string>(path, &counted_load);
  auto second = cached_parse<std::string>(path, &counted_load);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(*second, "a");
  EXPECT_EQ(loads, 1);
  fs::remove(path);
}

TEST(ParsedFileCache, ParsesAFileAgainOnceItChanges) {
  fs::path path = fresh_file("cache-edit", "a");
  loads = 0;
  EXPECT_EQ(*cached_parse<std::string>(path, &counted_load), "a");
  // Same size, later modification time: an edit that keeps the length is still seen.
  std::ofstream(path) << "b";
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(2));
  EXPECT_EQ(*cached_parse<std::string>(path, &counted_load), "b");
  std::ofstream(path) << "longer";
  EXPECT_EQ(*cached_parse<std::string>(path, &counted_load), "longer");
  EXPECT_EQ(loads, 3);
  fs::remove(path);
}

TEST(ParsedFileCache, AMissingFileGetsItsLoadersError) {
  fs::path path = fs::temp_directory_path() / "no-such-op-list.yaml";
  fs::remove(path);
  try {
    OpList::cached(path);
    FAIL() << "a missing op list was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos);
  }
}

TEST(ParsedFileCache, AnOpListIsSharedUntilItsFileChanges) {
  fs::path path = fresh_file("cache-list.yaml", "- {op: mm, reason: r, verified_on: x}\n");
  auto first = OpList::cached(path);
  EXPECT_EQ(first.get(), OpList::cached(path).get());
  std::ofstream(path) << "- {op: mm, reason: r, verified_on: x}\n- {op: bmm, reason: r, "
                         "verified_on: x}\n";
  auto edited = OpList::cached(path);
  EXPECT_EQ(edited->entries().size(), 2u);
  EXPECT_EQ(first->entries().size(), 1u);  // a holder of the old list keeps it whole
  fs::remove(path);
}

}  // namespace
}  // namespace caliber
