#include "cli/candidate_environment.h"

#include <gtest/gtest.h>

#include <map>

#include "core/fake_env.h"

namespace caliber {
namespace {

using caliber::testing::env_of;

Knobs knobs_with(const std::string& candidate, std::map<std::string, std::string> env = {}) {
  return resolve_knobs({{"candidate", candidate}}, env_of(std::move(env)));
}

TEST(CandidateEnvironment, SetsTheBackendsFlagGemsVendorForAPythonCandidate) {
  auto planned = plan_candidate_environment(knobs_with("python:flag_gems"), "cuda", env_of({}));
  EXPECT_EQ(planned.gems_vendor, "nvidia");
  EXPECT_EQ(planned.gems_vendor_source, "backend cuda");
  ASSERT_EQ(planned.exports.size(), 1u);
  EXPECT_EQ(planned.exports[0], (std::pair<std::string, std::string>{"GEMS_VENDOR", "nvidia"}));
  EXPECT_EQ(plan_candidate_environment(knobs_with("python:m"), "rocm", env_of({})).gems_vendor,
            "amd");
}

TEST(CandidateEnvironment, KeepsTheVendorTheUserSet) {
  for (const char* name : {"GEMS_VENDOR", "FLAGGEMS_VENDOR"}) {
    auto env = env_of({{name, "metax"}});
    auto planned = plan_candidate_environment(knobs_with("python:flag_gems"), "cuda", env);
    EXPECT_EQ(planned.gems_vendor, "metax") << name;
    EXPECT_EQ(planned.gems_vendor_source, name);
    EXPECT_TRUE(planned.exports.empty()) << name;
  }
}

TEST(CandidateEnvironment, NoVendorWithoutAPythonCandidateOrAFlagGemsVendor) {
  EXPECT_TRUE(plan_candidate_environment(knobs_with(""), "cuda", env_of({})).exports.empty());
  EXPECT_TRUE(plan_candidate_environment(knobs_with("python:flag_gems"), "cpu", env_of({}))
                  .exports.empty());
}

TEST(CandidateEnvironment, UseFlagtuneIsZeroOrOneWhenSetAndUnsetOtherwise) {
  auto env = env_of({{"USE_FLAGTUNE", "on"}});
  Knobs knobs = resolve_knobs({}, env);
  auto planned = plan_candidate_environment(knobs, "cpu", env);
  EXPECT_EQ(planned.use_flagtune, "1");
  ASSERT_EQ(planned.exports.size(), 1u);
  EXPECT_EQ(planned.exports[0], (std::pair<std::string, std::string>{"USE_FLAGTUNE", "1"}));
  Knobs off = resolve_knobs({{"use_flagtune", "false"}}, env_of({}));
  EXPECT_EQ(plan_candidate_environment(off, "cpu", env_of({})).use_flagtune, "0");
  Knobs unset = resolve_knobs({}, env_of({}));
  auto none = plan_candidate_environment(unset, "cpu", env_of({}));
  EXPECT_EQ(none.use_flagtune, "unset");
  EXPECT_TRUE(none.exports.empty());
}

}  // namespace
}  // namespace caliber
