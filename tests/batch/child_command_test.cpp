#include "batch/child_command.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "backend/registry.h"
#include "core/fake_env.h"

namespace caliber {
namespace {

using caliber::testing::env_of;

std::optional<std::string> value_of(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& env,
    const std::string& name) {
  for (const auto& [n, v] : env) {
    if (n == name) return v;
  }
  return "<absent>";
}

RunRequest request() {
  RunRequest r;
  r.op = "mm";
  r.out_dir = "/b/ops/mm";
  r.log_path = "/b/ops/mm/attempt-1.log";
  r.dtypes = {"float16", "float32"};
  r.tuner = "replay";
  r.tuner_file = "/a/ops/mm/tunableop_results.csv";
  return r;
}

TEST(ChildCommand, RunArgvNamesEveryKnobByItsFlag) {
  FlagValues flags = run_flags({{"level", "core"}, {"device", "0"}, {"timer", "graph"}}, request());
  auto argv = run_argv("/bin/caliber", flags, Shard{1, 4});
  std::vector<std::string> expected = {"/bin/caliber", "run",
                                       "--device",     "0",
                                       "--dtypes",     "float16,float32",
                                       "--level",      "core",
                                       "--op",         "mm",
                                       "--out",        "/b/ops/mm",
                                       "--timer",      "graph",
                                       "--tuner",      "replay",
                                       "--tuner-file", "/a/ops/mm/tunableop_results.csv",
                                       "--shard",      "1/4"};
  EXPECT_EQ(argv, expected);
}

TEST(ChildCommand, WorkerRequestCarriesOpOutLogAndKnobs) {
  FlagValues flags = run_flags({{"level", "core"}}, request());
  auto line = nlohmann::json::parse(worker_request_line(worker_request(flags, request())));
  EXPECT_EQ(line["op"], "mm");
  EXPECT_EQ(line["out"], "/b/ops/mm");
  EXPECT_EQ(line["log"], "/b/ops/mm/attempt-1.log");
  EXPECT_EQ(line["flags"]["level"], "core");
  EXPECT_EQ(line["flags"]["tuner"], "replay");
  EXPECT_FALSE(line["flags"].contains("op"));
}

TEST(ChildCommand, LaneSeesOnlyItsDevice) {
  const auto& cuda = find_backend("--backend", "cuda");
  auto env = lane_environment(cuda, 2, env_of({}));
  EXPECT_EQ(value_of(env, "CUDA_VISIBLE_DEVICES"), "2");
  EXPECT_EQ(value_of(env, "CALIBER_BATCH_DEVICE"), "2");
  EXPECT_EQ(value_of(env, "OP"), std::nullopt);  // removed
}

TEST(ChildCommand, LaneDeviceMapsThroughAnAlreadyNarrowedParent) {
  const auto& rocm = find_backend("--backend", "hip");
  auto env = lane_environment(rocm, 1, env_of({{"HIP_VISIBLE_DEVICES", "4,6"}}));
  EXPECT_EQ(value_of(env, "HIP_VISIBLE_DEVICES"), "6");
}

TEST(ChildCommand, HostBackendSetsNoVisibilityVariable) {
  auto env = lane_environment(find_backend("--backend", "cpu"), 1, env_of({}));
  EXPECT_EQ(value_of(env, "CUDA_VISIBLE_DEVICES"), "<absent>");
  EXPECT_EQ(value_of(env, "CALIBER_BATCH_DEVICE"), "1");
}

}  // namespace
}  // namespace caliber
