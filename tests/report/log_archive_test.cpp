#include "report/log_archive.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

class LogArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test: ctest runs the tests of this fixture in parallel.
    dir_ = fs::temp_directory_path() /
           (std::string("caliber_log_archive_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "logs" / "grp.a");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(LogArchive, PlainAndGzipFilesReadTheSame) {
  std::ofstream(dir_ / "plain.log") << "Operator: abs\n";
  gzFile gz = gzopen((dir_ / "packed.log.gz").c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzputs(gz, "Operator: abs\n");
  gzclose(gz);
  auto plain = read_log_texts(dir_ / "plain.log", "--fidelity");
  auto packed = read_log_texts(dir_ / "packed.log.gz", "--fidelity");
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(packed.size(), 1u);
  EXPECT_EQ(plain[0].text, "Operator: abs\n");
  EXPECT_EQ(packed[0].text, plain[0].text);
}

TEST_F(LogArchive, EveryRegularMemberOfACompressedTar) {
  std::ofstream(dir_ / "logs" / "grp.a" / "stdout.txt") << "first\n";
  std::string long_name(120, 'x');  // longer than ustar's 100-byte name field
  std::ofstream(dir_ / "logs" / (long_name + ".log")) << "second\n";
  std::string cmd = "tar -czf " + (dir_ / "logs.tgz").string() + " -C " + dir_.string() + " logs";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto texts = read_log_texts(dir_ / "logs.tgz", "--fidelity");
  ASSERT_EQ(texts.size(), 2u);
  std::string all = texts[0].text + texts[1].text;
  EXPECT_NE(all.find("first"), std::string::npos);
  EXPECT_NE(all.find("second"), std::string::npos);
  bool named = false;
  for (const auto& t : texts) named |= t.name.ends_with("logs/grp.a/stdout.txt");
  EXPECT_TRUE(named);
}

TEST_F(LogArchive, AMissingFileIsAUsageErrorNamingTheKnob) {
  try {
    read_log_texts(dir_ / "absent.log", "--fidelity");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("--fidelity"), std::string::npos);
  }
}

}  // namespace
}  // namespace caliber
