#include "engine/provider/file_digest.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace caliber {
namespace {

// Vectors from FIPS 180-4's examples; the 56-byte one makes the padding spill into a second block.
TEST(FileDigest, MatchesPublishedSha256Vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(FileDigest, HashesFileContentsAcrossReadBuffers) {
  const std::string bytes(200000, 'a');
  const auto path = std::filesystem::temp_directory_path() / "caliber_digest_test.bin";
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(sha256_of_file(path.string()), sha256_hex(bytes));
  std::filesystem::remove(path);
}

TEST(FileDigest, MissingFileIsAUsageError) {
  try {
    sha256_of_file("/nonexistent/caliber/file.so");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
}

}  // namespace
}  // namespace caliber
