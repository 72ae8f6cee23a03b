// caliber as a drop-in for FlagGems' benchmark users (issue 20), end to end on the CPU backend:
// the real binary in a temporary directory, with tests/providers/fake_checkout standing in for a
// FlagGems source checkout (`python:fake_gems`, whose scope is toy_override's add override).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/shell_command.h"
#include "core/atomic_file.h"
#include "core/flaggems_record.h"
#include "core/result_row.h"
#include "core/run_identity.h"
#include "engine/provider/file_digest.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::TempDir;

constexpr const char* kCleanEnv =
    "env -u BENCH_LEVEL -u DTYPES -u SHAPE_MODE -u OP -u OP_FILE -u TEST_NODE -u ZL_BACKEND "
    "-u ZL_DIRECT_REPEAT -u ZL_ENABLE_CUDAGRAPH -u ZL_ISOLATE_TUNER_CACHE -u USE_FLAGTUNE "
    "-u PARALLEL_WARMUP_GPUS -u REPLAY_FROM -u CALIBER_SELFTEST -u CALIBER_SELFTEST_STATE "
    "-u CALIBER_PEAKS_FILE -u GEMS_VENDOR -u FLAGGEMS_VENDOR -u GEMS_BACKEND -u FLAGGEMS_BACKEND "
    "NO_COLOR=1 OMP_NUM_THREADS=1";

constexpr const char* kQuick = "--backend cpu --warmup-ms 1 --rep-ms 3 --no-progress";

const fs::path kProviders = CALIBER_PROVIDER_TEST_DIR;
const fs::path kCheckout = kProviders / "fake_checkout";
const fs::path kFlagGems = fs::path(CALIBER_SOURCE_DIR) / "third_party_fetched" / "FlagGems";

std::string candidate_env() {
  return "PYTHONPATH=" + (kCheckout / "src").string() + ":" + kProviders.string();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class FlagGemsDropIn : public ::testing::Test {
 protected:
  TempDir dir_{"caliber-flaggems"};

  testing::ShellResult caliber(const std::string& args, const std::string& env = "") const {
    return testing::run_shell("cd '" + dir_.path().string() + "' && " + kCleanEnv + " " + env +
                              " " + CALIBER_BINARY + " " + args);
  }
  testing::ShellResult run(const std::string& args, const std::string& env = "") const {
    return caliber(std::string("run ") + kQuick + " " + args, env);
  }
  fs::path out(const std::string& name) const { return dir_ / name; }
  RunIdentity identity(const fs::path& run_dir) const {
    return read_identity((run_dir / "run_identity.json").string());
  }
  nlohmann::json probe(const std::string& name) const {
    return nlohmann::json::parse(read_file(out(name)));
  }
};

// Item 1: USE_FLAGTUNE reaches the candidate before its import, and the identity.
TEST_F(FlagGemsDropIn, UseFlagtuneIsHandedToTheCandidateBeforeItsImport) {
  auto r = run("--op add --dtypes float32 --candidate python:fake_gems --out " + out("on").string(),
               candidate_env() +
                   " USE_FLAGTUNE=yes CALIBER_ENV_PROBE_FILE=" + out("probe-on.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(probe("probe-on.json")["USE_FLAGTUNE"], "1");  // FlagGems accepts 0 or 1 only
  EXPECT_EQ(identity(out("on")).use_flagtune, "1");

  r = run("--op add --dtypes float32 --flagtune 0 --candidate python:fake_gems --out " +
              out("off").string(),
          candidate_env() + " CALIBER_ENV_PROBE_FILE=" + out("probe-off.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(probe("probe-off.json")["USE_FLAGTUNE"], "0");
  EXPECT_EQ(identity(out("off")).use_flagtune, "0");

  // Unset stays unset: FlagGems routes differently with no value than with 0.
  r = run("--op add --dtypes float32 --candidate python:fake_gems --out " + out("unset").string(),
          candidate_env() + " CALIBER_ENV_PROBE_FILE=" + out("probe-unset.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(probe("probe-unset.json")["USE_FLAGTUNE"].is_null());
  EXPECT_EQ(identity(out("unset")).use_flagtune, "unset");
}

TEST_F(FlagGemsDropIn, CompareGateRefusesDifferentUseFlagtuneUnlessAllowed) {
  ASSERT_EQ(run("--op add --dtypes float32 --flagtune 0 --out " + out("a").string()).exit_code, 0);
  ASSERT_EQ(run("--op add --dtypes float32 --flagtune 1 --out " + out("b").string()).exit_code, 0);
  auto r = caliber("compare " + out("a").string() + " " + out("b").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("use_flagtune"));
  r = caliber("compare " + out("a").string() + " " + out("b").string() +
              " --allow-mismatch use_flagtune");
  EXPECT_NE(r.exit_code, 2) << r.output;
}

// Item 2: a vendor the user set is what the candidate sees, and is recorded with its source.
TEST_F(FlagGemsDropIn, UsersGemsVendorIsKeptAndRecorded) {
  auto r = run("--op add --dtypes float32 --candidate python:fake_gems --out " + out("v").string(),
               candidate_env() +
                   " GEMS_VENDOR=metax CALIBER_ENV_PROBE_FILE=" + out("probe-v.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(probe("probe-v.json")["GEMS_VENDOR"], "metax");
  RunIdentity id = identity(out("v"));
  EXPECT_EQ(id.gems_vendor, "metax");
  EXPECT_EQ(id.gems_vendor_source, "GEMS_VENDOR");
}

// Item 3: SHAPE_MODE=upstream reads the candidate checkout's files and records their digest.
TEST_F(FlagGemsDropIn, ShapeModeUpstreamTakesTheCandidateCheckoutsShapes) {
  auto r = run("--op add --dtypes float32 --candidate python:fake_gems --out " + out("up").string(),
               candidate_env() + " SHAPE_MODE=upstream");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  YAML::Node shapes = YAML::LoadFile((out("up") / "shapes.yaml").string());
  EXPECT_EQ(shapes["add"]["shapes"].as<std::vector<std::vector<long>>>(),
            (std::vector<std::vector<long>>{{3, 7}, {5, 11}}));
  RunIdentity id = identity(out("up"));
  EXPECT_EQ(id.shape_mode, "upstream");
  fs::path core = kCheckout / "benchmark" / "core_shapes.yaml";
  EXPECT_EQ(fs::weakly_canonical(id.shape_source), fs::weakly_canonical(core));
  EXPECT_EQ(id.shape_source_sha256, sha256_of_file(core.string()));

  // FlagGems' --shape_file names a model file of the checkout.
  r =
      run("--op add --dtypes float32 --candidate python:fake_gems --shape-mode upstream "
          "--shape_file models_shapes/tiny_model.yaml --out " +
              out("model").string(),
          candidate_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  shapes = YAML::LoadFile((out("model") / "shapes.yaml").string());
  EXPECT_EQ(shapes["add"]["shapes"].as<std::vector<std::vector<long>>>(),
            (std::vector<std::vector<long>>{{2, 13}}));
}

TEST_F(FlagGemsDropIn, ShapeModeUpstreamWithoutACheckoutIsBadInput) {
  auto r = run("--op add --out " + out("none").string(), "SHAPE_MODE=upstream");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("upstream"));
  EXPECT_FALSE(fs::exists(out("none")));
  // toy_override.py sits in tests/providers, which holds no benchmark/core_shapes.yaml.
  r = run(
      "--op add --candidate python:toy_override --shape-mode upstream --out " + out("toy").string(),
      "PYTHONPATH=" + kProviders.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("benchmark/core_shapes.yaml"));
}

// Item 4: the old harness's OP_FILE.
TEST_F(FlagGemsDropIn, OpFileNamesTheOpWhenNothingElseDoes) {
  auto r = run("--dtypes float32 --out " + out("f").string(), "OP_FILE=test_add.py");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(identity(out("f")).op_node, "add");
  r = run("--dtypes float32 --out " + out("bad").string(), "OP_FILE=add.py");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("OP_FILE"));
  EXPECT_THAT(r.output, HasSubstr("test_<op>.py"));
}

// Item 6: FlagGems' mode name in the title, caliber's exact timer and cache on their own line.
TEST_F(FlagGemsDropIn, TableTitleCarriesFlagGemsModeNameAndCaliberItsOwn) {
  ASSERT_EQ(run("--op add --dtypes float32 --out " + out("t").string()).exit_code, 0);
  auto log = lines_of(read_file(out("t") / "run.log"));
  auto title = std::find_if(log.begin(), log.end(),
                            [](const std::string& l) { return l.starts_with("Operator: add"); });
  ASSERT_NE(title, log.end());
  EXPECT_THAT(*title, HasSubstr("mode=operator,level=core"));
  EXPECT_EQ(*(title - 1), "caliber: timer=host cache=hot");
  EXPECT_TRUE((title + 1)->starts_with("Status"));
}

// Item 7: --record log, checked against FlagGems' own log's structure and, where the pinned
// FlagGems checkout is present and imports here, against its summary_for_plot.py.
TEST_F(FlagGemsDropIn, RecordLogIsFlagGemsLogFormat) {
  auto r =
      run("--op add --dtypes float32,bfloat16 --candidate python:fake_gems --record log "
          "--out " +
              out("rec").string(),
          candidate_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto lines = lines_of(read_file(out("rec") / kRecordLogName));
  auto sample = lines_of(
      read_file(fs::path(CALIBER_SHARED_DIR) / "reference/flaggems/records/record_log_mm_add.log"));
  ASSERT_GE(sample.size(), 2u);
  ASSERT_EQ(lines.size(), 3u);  // the logger line, then float32 and bfloat16
  EXPECT_EQ(lines[0], sample[0]);
  auto keys = [](const nlohmann::ordered_json& j) {
    std::vector<std::string> out;
    for (const auto& [k, v] : j.items()) out.push_back(k);
    return out;
  };
  auto theirs = nlohmann::ordered_json::parse(sample[1].substr(7));
  auto rows = read_results_jsonl((out("rec") / "results.jsonl").string());
  std::map<std::string, std::vector<double>> speedups;  // dtype -> candidate speedups
  for (const auto& row : rows) {
    if (row.provider != "baseline" && row.speedup) speedups[row.dtype].push_back(*row.speedup);
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    ASSERT_TRUE(lines[i].starts_with("[INFO] {"));
    auto ours = nlohmann::ordered_json::parse(lines[i].substr(7));
    EXPECT_EQ(keys(ours), keys(theirs));
    EXPECT_EQ(ours["op_name"], "add");
    EXPECT_EQ(ours["mode"], "operator");
    ASSERT_EQ(ours["result"].size(), 2u);
    for (const auto& m : ours["result"]) {
      EXPECT_EQ(keys(m), keys(theirs["result"][0]));
      EXPECT_EQ(m["shape_detail"].size(), 2u);  // add(a, b): two tensor sizes
      EXPECT_TRUE(m["latency_base"].is_number());
      EXPECT_TRUE(m["latency"].is_number());
      EXPECT_NEAR(m["speedup"].get<double>(),
                  m["latency_base"].get<double>() / m["latency"].get<double>(), 1e-9);
    }
  }

  // FlagGems' own reader: `python -m benchmark.summary_for_plot LOG` in its checkout. Its
  // consts.py imports flag_gems only for the device name, so a stub stands in for the package,
  // which needs a device runtime to import.
  if (!fs::exists(kFlagGems / "benchmark" / "summary_for_plot.py")) {
    GTEST_SKIP() << "no FlagGems checkout at " << kFlagGems
                 << ": summary_for_plot.py not run (the record's structure is checked above)";
  }
  fs::create_directories(out("stub/flag_gems"));
  std::ofstream(out("stub/flag_gems/__init__.py")) << "device = \"cpu\"\n";
  auto plot =
      testing::run_shell("cd '" + kFlagGems.string() + "' && PYTHONPATH=" + out("stub").string() +
                         " " + CALIBER_PYTHON_EXE + " -m benchmark.summary_for_plot " +
                         (out("rec") / kRecordLogName).string());
  ASSERT_EQ(plot.exit_code, 0) << plot.output;
  auto printed = lines_of(plot.output);
  auto row = std::find_if(printed.begin(), printed.end(),
                          [](const std::string& l) { return l.starts_with("add "); });
  ASSERT_NE(row, printed.end()) << plot.output;
  std::istringstream fields(*row);
  std::string op;
  double fp16 = 0, fp32 = 0, bf16 = 0;
  fields >> op >> fp16 >> fp32 >> bf16;
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
  };
  EXPECT_NEAR(fp32, mean(speedups["float32"]), 1e-6);
  EXPECT_NEAR(bf16, mean(speedups["bfloat16"]), 1e-6);
}

TEST_F(FlagGemsDropIn, RecordJsonIsFlagGemsBenchmarkResult) {
  auto r = run("--op add --dtypes float32 --candidate python:fake_gems --record json --out " +
                   out("j").string(),
               candidate_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto ours = nlohmann::ordered_json::parse(read_file(out("j") / kRecordJsonName));
  auto theirs = nlohmann::ordered_json::parse(
      read_file(fs::path(CALIBER_SHARED_DIR) /
                "reference/flaggems/records/benchmark_result_add_cudagraph.json"));
  ASSERT_TRUE(ours.contains("add"));
  std::vector<std::string> k1, k2;
  for (const auto& [k, v] : ours["add"].items()) k1.push_back(k);
  for (const auto& [k, v] : theirs["add"].items()) k2.push_back(k);
  EXPECT_EQ(k1, k2);
  EXPECT_EQ(ours["add"]["result"], "passed");
  EXPECT_TRUE(ours["add"]["reason"].is_null());
  ASSERT_EQ(ours["add"]["details"].size(), 1u);
  EXPECT_EQ(ours["add"]["details"][0]["dtype"], "torch.float32");
}

TEST_F(FlagGemsDropIn, BatchRecordLogHoldsEveryOp) {
  auto r = caliber(std::string("batch --backend cpu --ops add,sub --dtypes float32 --warmup-ms 1 "
                               "--rep-ms 3 --isolation op --no-progress --record log --out ") +
                   out("batch").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto lines = lines_of(read_file(out("batch") / kRecordLogName));
  ASSERT_EQ(lines.size(), 3u) << read_file(out("batch") / kRecordLogName);
  std::vector<std::string> ops;
  for (size_t i = 1; i < lines.size(); ++i) {
    ops.push_back(nlohmann::json::parse(lines[i].substr(7))["op_name"]);
  }
  std::sort(ops.begin(), ops.end());
  EXPECT_EQ(ops, (std::vector<std::string>{"add", "sub"}));
}

// Item 8: FlagGems' flags as aliases, and its flags without a caliber meaning refused.
TEST_F(FlagGemsDropIn, FlagGemsFlagsSetCaliberKnobs) {
  auto r =
      run("--op add --mode operator --warmup 1 --iter 3 --dtypes float32 --dtypes bfloat16 "
          "--out " +
          out("alias").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  RunIdentity id = identity(out("alias"));
  EXPECT_EQ(id.timer, "host");
  EXPECT_EQ(id.dtypes, (std::vector<std::string>{"float32", "bfloat16"}));
}

TEST_F(FlagGemsDropIn, FlagGemsFlagsWithoutMeaningAreBadInputNamingTheFlag) {
  for (const std::string flag :
       {"--mode wrapper", "--query", "--parallel 2", "--output x.json", "--collect-marks m.yaml"}) {
    auto r = run("--op add --out " + out("refused").string() + " " + flag);
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.output;
    EXPECT_THAT(r.output, HasSubstr(flag.substr(0, flag.find(' ')))) << flag;
    EXPECT_FALSE(fs::exists(out("refused"))) << flag;
  }
  auto r = run("--op add --mode kernel --timer graph --out " + out("both").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--mode"));
}

TEST_F(FlagGemsDropIn, HelpSaysWhatEachFlagGemsFlagMaps) {
  for (const char* command : {"run --help", "batch --help"}) {
    auto r = caliber(command);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.output, HasSubstr("FlagGems' --mode"));
    EXPECT_THAT(r.output, HasSubstr("FlagGems' --warmup"));
    EXPECT_THAT(r.output, HasSubstr("FlagGems' --iter"));
    EXPECT_THAT(r.output, HasSubstr("FlagGems' --shape_file"));
    EXPECT_THAT(r.output, HasSubstr("same as FlagGems' --level"));
    EXPECT_THAT(r.output, HasSubstr("same as FlagGems' --dtypes"));
    EXPECT_THAT(r.output, HasSubstr("as FlagGems' --metrics"));
    EXPECT_THAT(r.output, HasSubstr("as FlagGems' --record"));
  }
}

// Item 9: a full disk. A tmpfs of a few pages, mounted here (CI runs as root).
class FullDisk : public FlagGemsDropIn {
 protected:
  void SetUp() override {
    mount_ = out("small");
    fs::create_directories(mount_);
    if (::mount("tmpfs", mount_.c_str(), "tmpfs", 0, "size=2m") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                   << "); the full-disk tests need root";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(mount_.c_str(), MNT_DETACH);
  }
  // Leaves about `free_kib` free on the tmpfs.
  void fill(long free_kib) {
    std::ofstream filler(mount_ / "filler", std::ios::binary);
    std::string block(4096, 'x');
    for (long i = 0; i < (2048 - free_kib) / 4; ++i) filler << block;
  }

  fs::path mount_;
  bool mounted_ = false;
};

TEST_F(FullDisk, RunStopsWithOneLineNamingTheFileAndCause) {
  fill(0);
  auto r = run("--op add --dtypes float32 --out " + (mount_ / "run").string());
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("No space left on device"));
  EXPECT_THAT(r.output, HasSubstr((mount_ / "run").string()));
  EXPECT_THAT(r.output, Not(HasSubstr("terminate called")));
}

TEST_F(FullDisk, BatchStopsCleanlyAndTheSameCommandResumes) {
  fill(64);
  std::string command =
      std::string(
          "batch --backend cpu --ops add,sub,mul,div --dtypes float32 --warmup-ms 1 "
          "--rep-ms 3 --isolation op --retries 0 --no-progress --out ") +
      (mount_ / "b").string();
  auto r = caliber(command);
  ASSERT_EQ(r.exit_code, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("No space left on device"));
  EXPECT_THAT(r.output, Not(HasSubstr("terminate called")));
  std::string last = lines_of(r.output).back();
  EXPECT_THAT(last, HasSubstr("cannot write")) << r.output;
  // What was written is valid: every marker parses, every results file reads.
  for (const auto& entry : fs::recursive_directory_iterator(mount_ / "b")) {
    std::string name = entry.path().filename().string();
    if (name == ".complete") {
      EXPECT_FALSE(nlohmann::json::parse(read_file(entry.path()), nullptr, false).is_discarded())
          << entry.path();
    } else if (name == "results.jsonl") {
      EXPECT_NO_THROW(read_results_jsonl(entry.path().string())) << entry.path();
    }
    EXPECT_THAT(name, Not(HasSubstr(".tmp."))) << entry.path();
  }
  fs::remove(mount_ / "filler");
  r = caliber(command);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* op : {"add", "sub", "mul", "div"}) {
    EXPECT_TRUE(fs::exists(mount_ / "b" / "ops" / op / ".complete")) << op;
  }
}

}  // namespace
}  // namespace caliber
