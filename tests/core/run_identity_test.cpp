#include "core/run_identity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

namespace caliber {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

RunIdentity sample() {
  RunIdentity id;
  id.backend = "cuda";
  id.device_model = "NVIDIA H200";
  id.timer = "graph";
  id.cache = "hot";
  id.level = "core";
  id.tuner_mode = "off";
  id.dtypes = {"float16"};
  id.shape_set = "abc123";
  id.host = "a";
  id.start_time = "2026-11-29T00:00:00Z";
  return id;
}

TEST(RunIdentity, RoundTripsThroughJsonFile) {
  auto path = std::filesystem::temp_directory_path() / "caliber_identity_test.json";
  RunIdentity id = sample();
  write_identity(path.string(), id);
  RunIdentity back = read_identity(path.string());
  EXPECT_THAT(identity_differences(id, back), IsEmpty());
  std::filesystem::remove(path);
}

TEST(RunIdentity, ListsNumberChangingFieldsThatDiffer) {
  RunIdentity a = sample();
  RunIdentity b = sample();
  b.timer = "direct";
  b.level = "comprehensive";
  b.host = "b";  // does not change a number
  EXPECT_THAT(identity_differences(a, b, number_changing_fields()), ElementsAre("timer", "level"));
}

TEST(RunIdentity, GraphCapturesChangeNumbersAndRunsBeforeTheKnobCapturedOnce) {
  RunIdentity a = sample();
  RunIdentity b = sample();
  b.graph_captures = a.graph_captures + 3;
  EXPECT_THAT(identity_differences(a, b, number_changing_fields()), ElementsAre("graph_captures"));
  nlohmann::json old = to_json(sample());
  old.erase("graph_captures");
  EXPECT_EQ(identity_from_json(old).graph_captures, 1);
}

TEST(RunIdentity, GraphTimerSwitchesChangeNumbersAndRunsBeforeTheKnobReadAsWithout) {
  const std::pair<const char*, bool RunIdentity::*> switches[] = {
      {"graph_upload", &RunIdentity::graph_upload},
      {"graph_warm_each", &RunIdentity::graph_warm_each}};
  for (const auto& [name, field] : switches) {
    RunIdentity a = sample();
    RunIdentity b = sample();
    b.*field = true;
    EXPECT_THAT(identity_differences(a, b, number_changing_fields()), ElementsAre(name));
    nlohmann::json old = to_json(sample());
    old.erase(name);
    EXPECT_FALSE(identity_from_json(old).*field);
  }
}

TEST(RunIdentity, AllFieldsDiffIncludesHostAndTimes) {
  RunIdentity a = sample();
  RunIdentity b = sample();
  b.host = "b";
  EXPECT_THAT(identity_differences(a, b), ElementsAre("host"));
}

TEST(RunIdentity, DtypeListOrderMatters) {
  RunIdentity a = sample();
  RunIdentity b = sample();
  b.dtypes = {"float16", "bfloat16"};
  EXPECT_THAT(identity_differences(a, b, number_changing_fields()), ElementsAre("dtypes"));
}

TEST(RunIdentity, TheGenericDeviceApiIsRecordedButNotNumberChanging) {
  RunIdentity native = sample();
  RunIdentity generic = sample();
  generic.device_api = "generic";
  generic.device_runtime = {{"events", "yes"}, {"timer_plan", "primary=direct"}};
  // On an H200 the generic path agreed with the CUDA glue as the CUDA glue agrees with itself
  // (docs/results.md, "Device-generic path"): the gate lets the two be compared, the identity
  // still tells them apart.
  EXPECT_THAT(identity_differences(native, generic, number_changing_fields()), IsEmpty());
  EXPECT_THAT(identity_differences(native, generic), ElementsAre("device_api", "device_runtime"));
  auto path = std::filesystem::temp_directory_path() / "caliber_identity_generic_test.json";
  write_identity(path.string(), generic);
  RunIdentity back = read_identity(path.string());
  EXPECT_EQ(back.device_runtime.at("events"), "yes");
  EXPECT_THAT(identity_differences(generic, back), IsEmpty());
  std::filesystem::remove(path);
}

TEST(RunIdentity, TheFlushMethodIsNumberChanging) {
  RunIdentity write = sample();
  write.cache = "cold";
  write.flush_method = "write";
  RunIdentity read = write;
  read.cache = "cold,flush=read";
  read.flush_method = "read";
  EXPECT_THAT(identity_differences(write, read, number_changing_fields()),
              ElementsAre("cache", "flush_method"));
  EXPECT_EQ(to_json(read).at("flush_method"), "read");
}

TEST(RunIdentity, AColdIdentityWrittenBeforeFlushMethodsReadsAsTheWriteFlush) {
  nlohmann::json old = to_json(sample());
  old.erase("flush_method");
  old["cache"] = "cold,flush_mb=256";
  EXPECT_EQ(identity_from_json(old).flush_method, "write");
  old["cache"] = "hot";
  EXPECT_EQ(identity_from_json(old).flush_method, "");
}

}  // namespace
}  // namespace caliber
