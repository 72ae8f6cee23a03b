// Writes on a full filesystem: a tmpfs of a few pages, mounted here (CI runs as root; elsewhere
// the tests skip).

#include "core/write_failure.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>

#include "core/atomic_file.h"
#include "core/run_directory.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FullFilesystem : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("caliber-full-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=64k") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs (" << std::strerror(errno) << "); needs root";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
    fs::remove_all(dir_);
  }
  // Fills the filesystem to its last page.
  void fill() {
    std::ofstream filler(dir_ / "filler", std::ios::binary);
    std::string block(4096, 'x');
    for (int i = 0; i < 64; ++i) filler << block;
  }
  std::string failure_of(const std::function<void()>& write) {
    try {
      write();
    } catch (const WriteFailure& e) {
      return e.what();
    }
    ADD_FAILURE() << "the write succeeded";
    return "";
  }

  fs::path dir_;
  bool mounted_ = false;
};

TEST_F(FullFilesystem, AtomicWriteNamesTheFileAndKeepsTheOldContent) {
  write_file_atomic(dir_ / "status.csv", "old\n");
  fill();
  std::string e =
      failure_of([&] { write_file_atomic(dir_ / "status.csv", std::string(8192, 'n')); });
  EXPECT_THAT(e, HasSubstr((dir_ / "status.csv").string() + ": No space left on device"));
  EXPECT_EQ(read_file(dir_ / "status.csv"), "old\n");
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(HasSubstr(".tmp.")));
  }
}

TEST_F(FullFilesystem, AppendTakesBackALineCutShort) {
  append_line_durable(dir_ / "results.jsonl", "{\"a\": 1}");
  fill();
  std::string e =
      failure_of([&] { append_line_durable(dir_ / "results.jsonl", std::string(8192, 'r')); });
  EXPECT_THAT(e, HasSubstr("results.jsonl"));
  EXPECT_EQ(read_file(dir_ / "results.jsonl"), "{\"a\": 1}\n");
}

TEST_F(FullFilesystem, RunDirectoryOnAFullDiskIsAWriteFailure) {
  fill();
  std::string e =
      failure_of([&] { RunDirectory(dir_ / "run").append_log(std::string(8192, 'l')); });
  EXPECT_THAT(e, HasSubstr("run.log"));
}

}  // namespace
}  // namespace caliber
