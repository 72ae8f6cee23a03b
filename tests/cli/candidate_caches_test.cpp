#include "cli/candidate_caches.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "cli/candidate_environment.h"
#include "core/fake_env.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

using caliber::testing::env_of;

class CandidateCaches : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = fs::temp_directory_path() /
            ("caliber_caches_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(home_);
    fs::create_directories(home_);
  }
  void TearDown() override { fs::remove_all(home_); }

  static void write(const fs::path& file, size_t bytes) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << std::string(bytes, 'x');
  }

  fs::path home_;
};

TEST_F(CandidateCaches, AFreshHomeHasNeitherCache) {
  auto caches = candidate_caches(env_of({{"HOME", home_.string()}}));
  EXPECT_EQ(caches.at("flaggems_tuned_configs"),
            (home_ / ".flaggems" / "config_cache").string() + ": absent");
  EXPECT_EQ(caches.at("triton_kernels"), (home_ / ".triton" / "cache").string() + ": absent");
}

TEST_F(CandidateCaches, CountsTheTunedConfigDatabasesAndTheCompiledKernels) {
  const fs::path configs = home_ / ".flaggems" / "config_cache";
  fs::create_directories(configs);
  EXPECT_EQ(candidate_caches(env_of({{"HOME", home_.string()}})).at("flaggems_tuned_configs"),
            configs.string() + ": empty");
  write(configs / "TunedConfig_nvidia_triton_3_6.db", 4096);
  write(configs / "notes.txt", 10);  // not a database
  write(home_ / ".triton" / "cache" / "a1b2" / "kernel.cubin", 1);
  write(home_ / ".triton" / "cache" / "c3d4" / "kernel.cubin", 1);
  auto caches = candidate_caches(env_of({{"HOME", home_.string()}}));
  EXPECT_EQ(caches.at("flaggems_tuned_configs"), configs.string() + ": 1 database, 4096 bytes");
  EXPECT_EQ(caches.at("triton_kernels"), (home_ / ".triton" / "cache").string() + ": 2 entries");
}

TEST_F(CandidateCaches, FollowsTheVariablesFlagGemsAndTritonRead) {
  write(home_ / "gems" / "config_cache" / "a.db", 3);
  write(home_ / "gems" / "config_cache" / "b.db", 5);
  write(home_ / "th" / ".triton" / "cache" / "k" / "f", 1);
  auto caches = candidate_caches(env_of({{"HOME", "/nonexistent"},
                                         {"FLAGGEMS_CACHE_DIR", (home_ / "gems").string()},
                                         {"TRITON_HOME", (home_ / "th").string()}}));
  EXPECT_EQ(caches.at("flaggems_tuned_configs"),
            (home_ / "gems" / "config_cache").string() + ": 2 databases, 8 bytes");
  EXPECT_EQ(caches.at("triton_kernels"),
            (home_ / "th" / ".triton" / "cache").string() + ": 1 entry");
  // TRITON_CACHE_DIR wins over TRITON_HOME.
  EXPECT_EQ(candidate_caches(env_of({{"TRITON_HOME", (home_ / "th").string()},
                                     {"TRITON_CACHE_DIR", (home_ / "none").string()}}))
                .at("triton_kernels"),
            (home_ / "none").string() + ": absent");
}

TEST_F(CandidateCaches, ADatabaseUrlIsAFileOrNamedByItsSchemeAlone) {
  write(home_ / "tuned.db", 7);
  const std::string file = (home_ / "tuned.db").string();
  // An absolute path has four slashes, as FlagGems' own default URL does.
  EXPECT_EQ(candidate_caches(env_of({{"FLAGGEMS_DB_URL", "sqlite:///" + file}}))
                .at("flaggems_tuned_configs"),
            file + ": 1 database, 7 bytes");
  EXPECT_EQ(candidate_caches(env_of({{"FLAGGEMS_DB_URL", "sqlite:///no/such.db"}}))
                .at("flaggems_tuned_configs"),
            "no/such.db: absent");
  EXPECT_EQ(candidate_caches(env_of({{"FLAGGEMS_DB_URL", "postgresql://u:secret@db/gems"}}))
                .at("flaggems_tuned_configs"),
            "FLAGGEMS_DB_URL (postgresql): not a file");
}

TEST_F(CandidateCaches, ArePlannedForAPythonCandidateOnly) {
  auto env = env_of({{"HOME", home_.string()}});
  auto python =
      plan_candidate_environment(resolve_knobs({{"candidate", "python:m"}}, env), "cuda", env);
  EXPECT_EQ(python.caches.size(), 2u);
  auto library =
      plan_candidate_environment(resolve_knobs({{"candidate", "library:x.so"}}, env), "cuda", env);
  EXPECT_TRUE(library.caches.empty());
  auto baseline = plan_candidate_environment(resolve_knobs({}, env), "cuda", env);
  EXPECT_TRUE(baseline.caches.empty());
}

}  // namespace
}  // namespace caliber
