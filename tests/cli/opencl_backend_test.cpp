// Runs the real `caliber` on a real out-of-tree accelerator through PyTorch's device-generic
// runtime: PyPI's torch-opencl (a PrivateUse1 backend that renames itself "opencl") on Debian's
// POCL OpenCL runtime, both installed by scripts/setup.sh. It implements add but not mm, exp,
// sum or _softmax, and has no events, so it exercises what a young port looks like: the backend
// loaded by name, its device enumerated through torch, the `host` timer, `direct` refused with
// the runtime's reason, and missing kernels reported as NOT_IMPLEMENTED rows.
//
// Where torch_opencl is not installed the suite is skipped, unless CALIBER_REQUIRE_OPENCL=1
// (scripts/test.sh sets it, so CI cannot skip it silently).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/shell_command.h"
#include "core/result_row.h"
#include "core/run_identity.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::TempDir;

constexpr const char* kCleanEnv =
    "env -u BENCH_LEVEL -u DTYPES -u SHAPE_MODE -u OP -u TEST_NODE -u ZL_BACKEND "
    "-u ZL_DIRECT_REPEAT -u ZL_ENABLE_CUDAGRAPH -u ZL_ISOLATE_TUNER_CACHE -u USE_FLAGTUNE "
    "-u PARALLEL_WARMUP_GPUS -u REPLAY_FROM -u CALIBER_SELFTEST -u CALIBER_SELFTEST_STATE "
    "-u CALIBER_PEAKS_FILE -u CALIBER_DEVICE_API -u CALIBER_BACKEND_LIBRARY NO_COLOR=1 "
    "OMP_NUM_THREADS=1";

// POCL runs on the host: the host's small shapes keep the suite short.
const std::string kQuick = std::string("--warmup-ms 1 --rep-ms 3 --no-progress --shape-file ") +
                           CALIBER_SOURCE_DIR + "/shapes/cpu.yaml";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class OpenclBackend : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    devices_ = new testing::ShellResult(caliber("devices --backend opencl --json"));
  }
  static void TearDownTestSuite() {
    delete devices_;
    devices_ = nullptr;
  }

  void SetUp() override {
    const char* required = std::getenv("CALIBER_REQUIRE_OPENCL");
    bool must = required != nullptr && std::string(required) == "1";
    if (!must && devices_->exit_code == 2 &&
        devices_->output.find("'torch_opencl'") != std::string::npos) {
      GTEST_SKIP() << "torch_opencl is not installed (scripts/setup.sh installs it): "
                   << devices_->output;
    }
  }

  static testing::ShellResult caliber(const std::string& args) {
    return testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY + " " + args);
  }

  TempDir dir_{"caliber-opencl"};
  static testing::ShellResult* devices_;
};

testing::ShellResult* OpenclBackend::devices_ = nullptr;

TEST_F(OpenclBackend, DevicesLoadsTheBackendAndShowsWhatItsRuntimeOffers) {
  ASSERT_EQ(devices_->exit_code, 0) << devices_->output;
  auto j = nlohmann::json::parse(devices_->output.substr(devices_->output.find('{')));
  EXPECT_EQ(j["backend"], "opencl");
  EXPECT_EQ(j["torch_device_type"], "opencl");
  EXPECT_EQ(j["device_api"], "generic");
  ASSERT_GE(j["devices"].size(), 1u);
  EXPECT_EQ(j["devices"][0]["index"], 0);
  // Detected, not declared: torch-opencl has no events, so only the host timer is offered.
  EXPECT_EQ(j["capabilities"]["device_events"], false);
  EXPECT_EQ(j["capabilities"]["graph_capture"], false);
  EXPECT_EQ(j["timers"], nlohmann::json::array({"host"}));
  EXPECT_EQ(j["default_timer"], "host");
  EXPECT_THAT(j["device_runtime"]["events"].get<std::string>(),
              AllOf(StartsWith("no: "), HasSubstr("events")));
  EXPECT_THAT(j["device_runtime"]["graph"].get<std::string>(), StartsWith("no: "));
  EXPECT_EQ(j["device_runtime"]["torch_device_type"], "opencl");
  EXPECT_THAT(j["device_runtime"]["timer_plan"].get<std::string>(), HasSubstr("primary=host"));
}

TEST_F(OpenclBackend, RunMeasuresAddWithTheHostTimerAndRecordsTheRuntime) {
  const auto run_dir = dir_ / "add";
  auto r = caliber("run --backend opencl --op add --dtypes float32 " + kQuick + " --out " +
                   run_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("device api: generic"));

  RunIdentity id = read_identity((run_dir / "run_identity.json").string());
  EXPECT_EQ(id.backend, "opencl");
  EXPECT_EQ(id.timer, "host");
  EXPECT_EQ(id.device_api, "generic");
  EXPECT_THAT(id.device_runtime["timer_plan"], HasSubstr("primary=host"));
  EXPECT_THAT(id.device_runtime["events"], StartsWith("no: "));
  EXPECT_FALSE(id.device_runtime["synchronize"].empty());

  auto rows = read_results_jsonl((run_dir / "results.jsonl").string());
  ASSERT_EQ(rows.size(), 2u);  // shapes/cpu.yaml's two binary pointwise shapes
  for (const auto& row : rows) {
    EXPECT_EQ(row.status, RowStatus::kSuccess) << row.error;
    EXPECT_EQ(row.timer_used, "host");
    EXPECT_GT(row.latency_ms, 0);
  }
}

TEST_F(OpenclBackend, DirectTimerIsRefusedWithTheRuntimesReasonBeforeAnyRun) {
  const auto run_dir = dir_ / "direct";
  auto r = caliber("run --backend opencl --op add --timer direct " + kQuick + " --out " +
                   run_dir.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, AllOf(HasSubstr("--timer: 'direct' is not available on backend opencl"),
                              HasSubstr("device events"), HasSubstr("available: auto, host")));
  EXPECT_FALSE(std::filesystem::exists(run_dir));
}

TEST_F(OpenclBackend, OpsTheBackendLacksAreReportedAsNotImplemented) {
  const auto run_dir = dir_ / "mm";
  auto r = caliber("run --backend opencl --op mm --dtypes float32 " + kQuick + " --out " +
                   run_dir.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  auto rows = read_results_jsonl((run_dir / "results.jsonl").string());
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) {
    EXPECT_EQ(row.status, RowStatus::kFailed);
    EXPECT_THAT(row.error, HasSubstr("not implemented on the opencl backend"));
    EXPECT_THAT(row.markers, ::testing::Contains(StartsWith("NOT_IMPLEMENTED[aten::mm")));
  }
}

TEST_F(OpenclBackend, BatchRunsThroughTheGenericPathAndSeparatesMissingKernels) {
  const auto batch_dir = dir_ / "batch";
  auto r = caliber("batch --backend opencl --ops add,mm --dtypes float32 --retries 0 " + kQuick +
                   " --out " + batch_dir.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;  // mm failed: the backend lacks it
  std::string status = slurp(batch_dir / "ops_status.csv");
  std::istringstream lines(status);
  std::string line;
  std::string add_line;
  std::string mm_line;
  while (std::getline(lines, line)) {
    if (line.rfind("add,", 0) == 0) add_line = line;
    if (line.rfind("mm,", 0) == 0) mm_line = line;
  }
  EXPECT_THAT(add_line, AllOf(StartsWith("add,ok,"), HasSubstr(",opencl,"), HasSubstr("host")))
      << status;
  EXPECT_THAT(mm_line, AllOf(StartsWith("mm,failed,"), HasSubstr(",opencl,"))) << status;
  RunIdentity id = read_identity((batch_dir / "ops" / "add" / "run_identity.json").string());
  EXPECT_EQ(id.device_api, "generic");
  for (const auto& row :
       read_results_jsonl((batch_dir / "ops" / "mm" / "results.jsonl").string())) {
    EXPECT_THAT(row.markers, ::testing::Contains(StartsWith("NOT_IMPLEMENTED[aten::mm")));
  }
}

TEST_F(OpenclBackend, AnyPrivateUse1BackendLoadsFromBackendLibrary) {
  const auto run_dir = dir_ / "pu1";
  auto r = caliber(
      "run --backend privateuse1 --backend-library python:torch_opencl --op add "
      "--dtypes float32 " +
      kQuick + " --out " + run_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  RunIdentity id = read_identity((run_dir / "run_identity.json").string());
  EXPECT_EQ(id.backend, "privateuse1");
  EXPECT_EQ(id.device_api, "generic");
  EXPECT_EQ(id.device_runtime["torch_device_type"], "opencl");  // torch's name after the rename
}

TEST(GenericBackendRefusals, MissingPackageIsExitTwoNamingIt) {
  auto r =
      testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY + " devices --backend musa");
  // No MUSA runtime or torch_musa on CI machines: the package is what is named.
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, AllOf(HasSubstr("'torch_musa'"), HasSubstr("backend musa")));
}

TEST(GenericBackendRefusals, BadDeviceApiChoicesAreUsageErrors) {
  auto native = testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY +
                                   " devices --backend ascend --device-api native");
  EXPECT_EQ(native.exit_code, 2) << native.output;
  EXPECT_THAT(native.output, HasSubstr("--device-api: 'native' has no glue for backend ascend"));
  auto host = testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY +
                                 " devices --backend cpu --device-api generic");
  EXPECT_EQ(host.exit_code, 2) << host.output;
  EXPECT_THAT(host.output, HasSubstr("--device-api: 'generic' drives accelerators"));
  auto bogus = testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY +
                                  " devices --backend cpu --device-api vendor");
  EXPECT_EQ(bogus.exit_code, 2) << bogus.output;
  EXPECT_THAT(bogus.output, HasSubstr("accepted: auto, native, generic"));
}

TEST(GenericBackendRefusals, PrivateUse1WithoutALibraryOrWithAMissingOneIsExitTwo) {
  auto none = testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY +
                                 " devices --backend privateuse1");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_THAT(none.output, HasSubstr("--backend-library"));
  auto missing = testing::run_shell(std::string(kCleanEnv) + " " + CALIBER_BINARY +
                                    " devices --backend privateuse1 --backend-library "
                                    "/nonexistent/libbackend.so");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_THAT(missing.output, HasSubstr("'/nonexistent/libbackend.so' does not exist"));
}

}  // namespace
}  // namespace caliber
