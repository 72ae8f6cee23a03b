// Runs the real `caliber run` on the CPU backend in a temporary directory and reads what it
// leaves there: run.log, shapes.yaml, run_identity.json and results.jsonl, the exit code, and the
// terminal view. The candidate tests use tests/providers/toy_override.py (python:) and the
// example override library (library:), both overriding aten::add.Tensor for CPU.

#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/shell_command.h"
#include "core/result_row.h"
#include "core/run_identity.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::TempDir;

// Every environment name `caliber run` honours, cleared so the runner's environment cannot
// change what a test runs. One intra-op thread: on a loaded CI host, waking OpenMP workers
// turns a microsecond op into milliseconds.
constexpr const char* kCleanEnv =
    "env -u BENCH_LEVEL -u DTYPES -u SHAPE_MODE -u OP -u TEST_NODE -u ZL_BACKEND "
    "-u ZL_DIRECT_REPEAT -u ZL_ENABLE_CUDAGRAPH -u ZL_ISOLATE_TUNER_CACHE -u USE_FLAGTUNE "
    "-u PARALLEL_WARMUP_GPUS -u REPLAY_FROM -u CALIBER_SELFTEST -u CALIBER_SELFTEST_STATE "
    "-u CALIBER_PEAKS_FILE -u CALIBER_FLUSH_METHOD NO_COLOR=1 OMP_NUM_THREADS=1";

// A short caliber: these tests check what a run writes, not its numbers.
constexpr const char* kQuick = "--backend cpu --warmup-ms 1 --rep-ms 3 --no-progress";

using RunCommandOutcome = testing::ShellResult;

bool path_exists(const std::filesystem::path& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

int count_lines_starting(const std::string& text, const std::string& prefix) {
  int n = 0;
  for (const auto& line : lines_of(text)) n += line.rfind(prefix, 0) == 0 ? 1 : 0;
  return n;
}

class RunCommand : public ::testing::Test {
 protected:
  TempDir dir_{"caliber-cli-run"};

  // `caliber run ARGS` with the working directory in the temp dir (so the default runs/ lands
  // there) and `env` (NAME=VALUE ...) on top of a clean environment.
  RunCommandOutcome run(const std::string& args, const std::string& env = "") const {
    return testing::run_shell("cd '" + dir_.path().string() + "' && " + kCleanEnv + " " + env +
                              " " + CALIBER_BINARY + " run " + args);
  }

  std::filesystem::path out(const std::string& name) const { return dir_ / name; }

  static std::vector<ResultRow> results(const std::filesystem::path& run_dir) {
    return read_results_jsonl((run_dir / "results.jsonl").string());
  }

  static std::vector<ResultRow> rows_of(const std::vector<ResultRow>& rows,
                                        const std::string& provider) {
    std::vector<ResultRow> out;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(out),
                 [&](const ResultRow& r) { return r.provider == provider; });
    return out;
  }
};

TEST_F(RunCommand, WritesEveryArtifactAndEachParses) {
  const auto run_dir = out("mm");
  RunCommandOutcome r = run(std::string(kQuick) + " --op mm --out " + run_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;

  // shapes.yaml: the level and the shapes shapes/cpu.yaml gives mm.
  YAML::Node shapes = YAML::LoadFile((run_dir / "shapes.yaml").string());
  ASSERT_TRUE(shapes["mm"]) << slurp(run_dir / "shapes.yaml");
  EXPECT_EQ(shapes["mm"]["level"].as<std::string>(), "core");
  EXPECT_EQ(shapes["mm"]["shapes"].as<std::vector<std::vector<long>>>(),
            (std::vector<std::vector<long>>{{2, 32, 48, 64}, {4, 64, 64, 64}}));

  // run_identity.json: every field that has a value on the CPU.
  RunIdentity id = read_identity((run_dir / "run_identity.json").string());
  EXPECT_EQ(id.backend, "cpu");
  EXPECT_FALSE(id.device_model.empty());
  EXPECT_FALSE(id.torch_version.empty());
  EXPECT_EQ(id.timer, "host");
  EXPECT_EQ(id.cache, "hot");
  EXPECT_EQ(id.flush_method, "");  // a hot run never flushes
  EXPECT_EQ(id.repeat, 1);
  EXPECT_EQ(id.policy, "fixed");
  EXPECT_EQ(id.level, "core");
  EXPECT_FALSE(id.shape_mode.empty());
  EXPECT_FALSE(id.shape_set.empty());
  EXPECT_EQ(id.tuner_mode, "off");
  EXPECT_EQ(id.provider, "baseline");
  EXPECT_EQ(id.op_node, "mm");
  EXPECT_EQ(id.dtypes, (std::vector<std::string>{"float16", "float32", "bfloat16"}));
  EXPECT_FALSE(id.harness_version.empty());
  EXPECT_FALSE(id.host.empty());
  EXPECT_THAT(id.command_line, AllOf(HasSubstr("caliber run"), HasSubstr("--op mm")));
  EXPECT_FALSE(id.start_time.empty());
  EXPECT_FALSE(id.end_time.empty());
  EXPECT_LE(id.start_time, id.end_time);  // ISO 8601 UTC strings order as times

  // results.jsonl: one row per shape x dtype (baseline only), each with its samples and caliber.
  auto raw = lines_of(slurp(run_dir / "results.jsonl"));
  ASSERT_EQ(raw.size(), 6u);
  for (const auto& line : raw) {
    auto j = nlohmann::json::parse(line);
    for (const char* key :
         {"op", "dtype", "shape", "provider", "status", "samples_ms", "sample_count", "timer_used",
          "timer_requested", "markers", "activities_per_call", "kernel_only_us"}) {
      EXPECT_TRUE(j.contains(key)) << key << " missing in " << line;
    }
    // Only the kernel timer counts device activities.
    EXPECT_TRUE(j["activities_per_call"].is_null()) << line;
    EXPECT_TRUE(j["kernel_only_us"].is_null()) << line;
  }
  std::set<std::pair<std::string, std::string>> cases;
  for (const ResultRow& row : results(run_dir)) {
    EXPECT_EQ(row.op, "mm");
    EXPECT_EQ(row.family, "blas");
    EXPECT_EQ(row.provider, "baseline");
    EXPECT_EQ(row.status, RowStatus::kSuccess) << row.error;
    EXPECT_EQ(row.timer_used, "host");
    EXPECT_EQ(row.timer_requested, "host");
    EXPECT_GT(row.sample_count, 0);
    EXPECT_FALSE(row.samples_ms.empty());
    EXPECT_GT(row.latency_ms, 0);
    EXPECT_EQ(row.shape.size(), 2u);  // the two matrices
    EXPECT_FALSE(row.speedup.has_value());
    cases.insert({row.dtype, row.size_detail});
  }
  EXPECT_EQ(cases.size(), 6u);

  // run.log: FlagGems' wording, greppable, no escapes.
  std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(log.find('\x1b'), std::string::npos);
  for (const char* dtype : {"float16", "float32", "bfloat16"}) {
    EXPECT_THAT(log, HasSubstr(std::string("Operator: mm  Performance Test (dtype=torch.") + dtype +
                               ", mode=operator,level=core)"));
  }
  EXPECT_EQ(count_lines_starting(log, "Status       Torch Latency (ms)    Gems Latency (ms)"), 3);
  EXPECT_EQ(count_lines_starting(log, "SUCCESS "), 6);
  EXPECT_THAT(log, HasSubstr("[torch.Size([32, 64]), torch.Size([64, 48])]"));
  EXPECT_THAT(log, HasSubstr("level: core"));  // the start banner
  EXPECT_THAT(log, HasSubstr("timer: host"));
  EXPECT_THAT(log, HasSubstr("caliber run end"));
  EXPECT_THAT(log, HasSubstr("6 rows, 0 failed"));
  // Where the op's time went (bench/screen_profile.py reads this line): the parts before the
  // first case add up to it, and the cases took time.
  std::smatch time;
  ASSERT_TRUE(std::regex_search(
      log, time,
      std::regex(R"(time: ([\d.]+) s before the first case \(plan and files ([\d.]+), device )"
                 R"(([\d.]+), peaks and tuner ([\d.]+), op ([\d.]+)\), ([\d.]+) s in cases, )"
                 R"(([\d.]+) s around them \(([\d.]+) releasing cached memory\))")))
      << log;
  double parts = 0;
  for (int i = 2; i <= 5; ++i) parts += std::stod(time[i]);
  EXPECT_NEAR(std::stod(time[1]), parts, 0.003);  // each rounded to 1 ms
  EXPECT_GT(std::stod(time[6]), 0);
  EXPECT_LE(std::stod(time[8]), std::stod(time[7]) + 0.001);  // the release is part of "around"
}

TEST_F(RunCommand, FoldsAnArgumentThatIsTheSameInEveryRowIntoALegend) {
  // cumsum on the CPU shapes: dim=1 in both rows.
  const auto run_dir = out("cumsum");
  RunCommandOutcome r =
      run(std::string(kQuick) + " --op cumsum --dtypes float32 --out " + run_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("same in every row: arg1=1"));
  int rows = 0;
  for (const auto& line : lines_of(r.output)) {
    if (line.find("SUCCESS") == std::string::npos) continue;
    ++rows;
    EXPECT_THAT(line, HasSubstr("torch.Size(["));
    EXPECT_THAT(line, Not(HasSubstr("]), 1")));  // the folded argument is not repeated
  }
  EXPECT_EQ(rows, 2);
  // run.log keeps FlagGems' full size detail.
  EXPECT_THAT(slurp(run_dir / "run.log"), HasSubstr("[torch.Size([32, 64]), 1]"));
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);  // not a TTY: no colour

  // mm's two inputs differ from row to row: nothing to fold.
  r = run(std::string(kQuick) + " --op mm --dtypes float32 --out " + out("mm").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("same in every row")));
}

struct BadInput {
  std::string name;  // of the test case
  std::string args;
  std::string env;
  std::string knob;  // the message must name it
};

void PrintTo(const BadInput& bad, std::ostream* os) {
  *os << "'" << bad.env << " caliber run " << bad.args << "'";
}

class RunCommandRejects : public RunCommand, public ::testing::WithParamInterface<BadInput> {};

TEST_P(RunCommandRejects, WithExit2NamingTheKnobAndNoRunDirectory) {
  const BadInput& bad = GetParam();
  RunCommandOutcome r = run("--backend cpu --no-progress " + bad.args, bad.env);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr(bad.knob + ": '")) << r.output;
  EXPECT_FALSE(path_exists(dir_ / "runs")) << "a run directory was created:\n" << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    BadKnobs, RunCommandRejects,
    ::testing::Values(
        BadInput{"Level", "--op mm --level full", "", "--level"},
        BadInput{"LevelFromEnvironment", "--op mm", "BENCH_LEVEL=full", "BENCH_LEVEL"},
        BadInput{"Op", "--op nosuch", "", "--op"},
        BadInput{"OpFromEnvironment", "", "OP=nosuch", "OP"},
        BadInput{"Node", "--node nosuch::variant", "", "--node (TEST_NODE)"},
        BadInput{"Dtype", "--op mm --dtypes float17", "", "--dtypes"},
        BadInput{"DtypeFromEnvironment", "--op mm", "DTYPES=float17", "DTYPES"},
        // mm is floating point only (`caliber ops --json` lists its dtypes).
        BadInput{"UnsupportedDtype", "--op mm --dtypes bool", "", "--dtypes"},
        BadInput{"OneUnsupportedDtype", "--op mm --dtypes float32,int32", "", "--dtypes"},
        BadInput{"TunerOnCpu", "--op mm --tuner record", "", "--tuner"},
        // The host has no cache flush in its capabilities: refused before the run starts.
        BadInput{"ColdCacheOnCpu", "--op mm --cache cold", "", "--cache"},
        BadInput{"FlushSizeWithoutColdCache", "--op mm --flush-mb 64", "", "--flush-mb"},
        BadInput{"FlushMethod", "--op mm --cache cold --flush-method zero", "", "--flush-method"},
        BadInput{"FlushMethodFromEnvironment", "--op mm --cache cold", "CALIBER_FLUSH_METHOD=zero",
                 "CALIBER_FLUSH_METHOD"},
        BadInput{"FlushMethodWithoutColdCache", "--op mm --flush-method read", "",
                 "--flush-method"},
        BadInput{"Shard", "--op mm --shard 2/2", "", "--shard"},
        BadInput{"CandidateKind", "--op mm --candidate nosuch:thing", "", "--candidate"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST_F(RunCommand, AnUnsupportedDtypeNamesTheOpAndWhatItSupports) {
  RunCommandOutcome r = run("--backend cpu --op mm --dtypes int32");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.output, HasSubstr("--dtypes: 'int32' is not supported by mm (supported: "));
}

TEST_F(RunCommand, AFailedRowDoesNotStopTheRun) {
  const auto run_dir = out("dtype_fail");
  RunCommandOutcome r =
      run(std::string(kQuick) + " --op selftest_dtype_fail --dtypes float16,float32 --out " +
              run_dir.string(),
          "CALIBER_SELFTEST=1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].dtype, "float16");
  EXPECT_EQ(rows[0].status, RowStatus::kFailed);
  EXPECT_THAT(rows[0].error, HasSubstr("float16 fails"));
  EXPECT_EQ(rows[1].dtype, "float32");
  EXPECT_EQ(rows[1].status, RowStatus::kSuccess) << rows[1].error;
  EXPECT_GT(rows[1].latency_ms, 0);
  std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(count_lines_starting(log, "FAILED "), 1);
  EXPECT_EQ(count_lines_starting(log, "SUCCESS "), 1);
  EXPECT_THAT(log, HasSubstr("(dtype=torch.float32, mode=operator,level=core)"));
  EXPECT_THAT(log, HasSubstr("2 rows, 1 failed"));
  EXPECT_FALSE(read_identity((run_dir / "run_identity.json").string()).end_time.empty());
}

TEST_F(RunCommand, ADeviceFatalErrorStopsWithExit3AndValidArtifacts) {
  const auto run_dir = out("fatal");
  RunCommandOutcome r =
      run(std::string(kQuick) + " --op selftest_device_fatal --dtypes float16,float32 --out " +
              run_dir.string(),
          "CALIBER_SELFTEST=1");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("DEVICE FATAL"));
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 1u);  // float32 was never attempted
  EXPECT_EQ(rows[0].status, RowStatus::kFailed);
  EXPECT_EQ(rows[0].dtype, "float16");
  EXPECT_THAT(rows[0].error, HasSubstr("unrecoverable"));
  EXPECT_THAT(rows[0].markers, ::testing::Contains("DEVICE_FATAL"));
  EXPECT_EQ(rows[0].family, "selftest");  // the caliber fields a report groups by
  EXPECT_EQ(rows[0].timer_requested, "host");
  EXPECT_EQ(rows[0].cache, "hot");
  RunIdentity id = read_identity((run_dir / "run_identity.json").string());
  EXPECT_EQ(id.op_node, "selftest_device_fatal");
  EXPECT_FALSE(id.end_time.empty());
  YAML::Node shapes = YAML::LoadFile((run_dir / "shapes.yaml").string());
  EXPECT_TRUE(shapes["selftest_device_fatal"]);
  std::string log = slurp(run_dir / "run.log");
  EXPECT_THAT(log, HasSubstr("Operator: selftest_device_fatal  Performance Test"));
  EXPECT_THAT(log, Not(HasSubstr("dtype=torch.float32")));
  EXPECT_THAT(log, HasSubstr("exit 3"));
}

TEST_F(RunCommand, HonoursTheEnvironmentNamesOfThePythonHarness) {
  const auto env_dir = out("env");
  RunCommandOutcome r = run("--warmup-ms 1 --rep-ms 3 --no-progress --out " + env_dir.string(),
                            "ZL_BACKEND=cpu OP=mm DTYPES=float32 BENCH_LEVEL=core");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  RunIdentity id = read_identity((env_dir / "run_identity.json").string());
  EXPECT_EQ(id.backend, "cpu");
  EXPECT_EQ(id.op_node, "mm");
  EXPECT_EQ(id.dtypes, std::vector<std::string>{"float32"});
  EXPECT_EQ(results(env_dir).size(), 2u);
  EXPECT_THAT(slurp(env_dir / "run.log"),
              AllOf(HasSubstr("op(OP)"), HasSubstr("dtypes(DTYPES)"),
                    HasSubstr("level(BENCH_LEVEL)"), HasSubstr("backend(ZL_BACKEND)")));

  // A FlagGems pytest node id names the op as well, from the flag or from TEST_NODE.
  const auto node_dir = out("node");
  r = run(std::string(kQuick) + " --dtypes float32 --out " + node_dir.string(),
          "TEST_NODE=test_mm.py::test_mm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_identity((node_dir / "run_identity.json").string()).op_node,
            "test_mm.py::test_mm");
  EXPECT_EQ(results(node_dir).at(0).op, "mm");
  const auto flag_dir = out("node_flag");
  r = run(std::string(kQuick) + " --node test_mm.py::test_mm --dtypes float32 --out " +
          flag_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(results(flag_dir).at(0).op, "mm");

  // A flag wins over its environment name.
  const auto win_dir = out("flag_wins");
  r = run(std::string(kQuick) + " --op cumsum --dtypes float32 --out " + win_dir.string(),
          "OP=mm DTYPES=float16");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(results(win_dir).at(0).op, "cumsum");
  EXPECT_EQ(results(win_dir).at(0).dtype, "float32");
}

TEST_F(RunCommand, WithoutOutItWritesANewDirectoryUnderRuns) {
  RunCommandOutcome r = run(std::string(kQuick) + " --op mm --dtypes float32");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(path_exists(dir_ / "runs")) << r.output;
  // opendir rather than std::filesystem::directory_iterator: see TempDir on libtorch's copy.
  std::vector<std::string> runs;
  DIR* listing = ::opendir((dir_ / "runs").c_str());
  ASSERT_NE(listing, nullptr);
  while (const dirent* entry = ::readdir(listing)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") runs.push_back(name);
  }
  ::closedir(listing);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_THAT(runs[0], ::testing::EndsWith("-mm"));
  EXPECT_TRUE(path_exists(dir_ / "runs" / runs[0] / "results.jsonl"));
}

TEST_F(RunCommand, AShardRunsItsShareOfTheCases) {
  std::set<std::string> seen;
  for (const char* shard : {"0/2", "1/2"}) {
    const auto run_dir = out(std::string("shard") + shard[0]);
    RunCommandOutcome r = run(std::string(kQuick) + " --op mm --dtypes float32 --shard " + shard +
                              " --out " + run_dir.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto rows = results(run_dir);
    ASSERT_EQ(rows.size(), 1u) << shard;  // mm has two CPU shapes
    seen.insert(rows[0].size_detail);
    EXPECT_THAT(slurp(run_dir / "run.log"), HasSubstr("shapes: 1 cases"));
  }
  EXPECT_EQ(seen.size(), 2u);  // the two shards split the cases between them
}

// A batch retries an op into the directory its killed attempt wrote; the rows there are the
// retry's alone, as the identity beside them says.
TEST_F(RunCommand, ASecondRunIntoOneDirectoryReplacesTheFirstsRowsAndLog) {
  const auto run_dir = out("twice");
  ASSERT_EQ(
      run(std::string(kQuick) + " --op mm --dtypes float32 --out " + run_dir.string()).exit_code,
      0);
  ASSERT_EQ(results(run_dir).size(), 2u);  // mm has two CPU shapes
  RunCommandOutcome r =
      run(std::string(kQuick) + " --op mm --dtypes float16 --out " + run_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) EXPECT_EQ(row.dtype, "float16");
  const std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(count_lines_starting(log, "caliber run mm"), 1) << log;
  EXPECT_THAT(log, Not(HasSubstr("dtype=torch.float32")));
}

// The H200 core screen (2026-11-29) ran eye and one_hot out of device memory at shapes that
// FlagGems' own tests skip: the run leaves them out and says so, in the terminal and run.log.
TEST_F(RunCommand, SaysWhichShapesTheOpLeftOut) {
  const auto shape_file = out("large.yaml");
  std::ofstream(shape_file) << "eye:\n  shapes: [[1073741824], [16, 16]]\n"
                               "one_hot:\n  shapes: [[1073741824]]\n";
  const auto eye_dir = out("eye");
  RunCommandOutcome r = run(std::string(kQuick) + " --op eye --dtypes float32 --shape-file " +
                            shape_file.string() + " --out " + eye_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string skipped = "skipped shapes: [1073741824]: eye of 1073741824 rows";
  EXPECT_THAT(r.output, HasSubstr(skipped));
  EXPECT_THAT(slurp(eye_dir / "run.log"), HasSubstr(skipped));
  EXPECT_THAT(slurp(eye_dir / "run.log"), HasSubstr("shapes: 1 cases"));
  auto rows = results(eye_dir);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, RowStatus::kSuccess) << rows[0].error;
  YAML::Node shapes = YAML::LoadFile((eye_dir / "shapes.yaml").string());
  EXPECT_EQ(shapes["eye"]["shapes"].size(), 1u);
  ASSERT_EQ(shapes["eye"]["skipped"].size(), 1u);

  // Every shape left out: an empty run that says why, not a failure.
  const auto one_hot_dir = out("one_hot");
  r = run(std::string(kQuick) + " --op one_hot --shape-file " + shape_file.string() + " --out " +
          one_hot_dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("skipped shapes: [1073741824]: one_hot output of"));
  EXPECT_THAT(r.output, HasSubstr("0 rows, 0 failed"));
  EXPECT_THAT(slurp(one_hot_dir / "run.log"), HasSubstr("skipped shapes: [1073741824]: one_hot"));
}

// --candidate: the baseline and the candidate interleaved per shape, in one process.
class RunCommandCandidate : public RunCommand {
 protected:
  static std::string python_env() { return std::string("PYTHONPATH=") + CALIBER_PROVIDER_TEST_DIR; }

  // Each shape has its baseline row, then its candidate row.
  static void expect_interleaved(const std::vector<ResultRow>& rows, const std::string& spec) {
    ASSERT_EQ(rows.size() % 2, 0u);
    for (size_t i = 0; i < rows.size(); i += 2) {
      EXPECT_EQ(rows[i].provider, "baseline");
      EXPECT_EQ(rows[i + 1].provider, spec);
      EXPECT_EQ(rows[i].size_detail, rows[i + 1].size_detail);
      EXPECT_EQ(rows[i].dtype, rows[i + 1].dtype);
      // The candidate left ATen's kernels as it found them once its scope ended.
      for (const auto& marker : rows[i].markers) {
        EXPECT_THAT(marker, Not(HasSubstr("baseline_changed")));
      }
    }
  }

  // `caliber run --op OP --dtypes DTYPES --candidate CANDIDATE` into out(NAME): its rows, once it
  // exited 0 with baseline and candidate rows interleaved (call under ASSERT_NO_FATAL_FAILURE).
  void run_candidate(const std::string& name, const std::string& op, const std::string& dtypes,
                     const std::string& candidate, std::vector<ResultRow>& rows) {
    const auto run_dir = out(name);
    RunCommandOutcome r = run(std::string(kQuick) + " --op " + op + " --dtypes " + dtypes +
                                  " --candidate " + candidate + " --out " + run_dir.string(),
                              python_env());
    ASSERT_EQ(r.exit_code, 0) << op << "\n" << r.output;
    rows = results(run_dir);
    ASSERT_FALSE(rows.empty()) << op;
    expect_interleaved(rows, candidate);
  }

  static void expect_speedups(const std::vector<ResultRow>& rows) {
    for (size_t i = 0; i < rows.size(); i += 2) {
      const ResultRow& base = rows[i];
      const ResultRow& cand = rows[i + 1];
      ASSERT_EQ(cand.status, RowStatus::kSuccess) << cand.error;
      ASSERT_TRUE(cand.speedup.has_value());
      ASSERT_TRUE(cand.baseline_ms.has_value());
      EXPECT_DOUBLE_EQ(*cand.baseline_ms, base.latency_ms);
      EXPECT_NEAR(*cand.speedup, base.latency_ms / cand.latency_ms, 1e-9 * *cand.speedup);
      EXPECT_GT(cand.sample_count, 0);
      EXPECT_EQ(cand.timer_used, "host");
    }
  }
};

TEST_F(RunCommandCandidate, PythonCandidateRowsCarryASpeedup) {
  const auto run_dir = out("py_add");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op add --dtypes float32 --candidate python:toy_override "
                                "--out " +
                                run_dir.string(),
                            python_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 4u);  // 2 shapes x (baseline, candidate)
  expect_interleaved(rows, "python:toy_override");
  expect_speedups(rows);

  RunIdentity id = read_identity((run_dir / "run_identity.json").string());
  EXPECT_EQ(id.provider, "python:toy_override");
  EXPECT_THAT(id.provider_version, HasSubstr("0.1.toy"));
  std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(count_lines_starting(log, "SUCCESS "), 2);
  for (const auto& line : lines_of(log)) {
    if (line.rfind("SUCCESS ", 0) == 0) {
      EXPECT_THAT(line, Not(HasSubstr("N/A"))) << line;
    }
  }
}

TEST_F(RunCommandCandidate, OnlyCandidateRowsRunTheOverride) {
  // The sleeping override takes >= 1 ms a call; ATen's add of these shapes takes microseconds.
  // Baseline rows timed inside the candidate's context would take the override's time too.
  const auto run_dir = out("py_sleep");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op add --dtypes float32 --candidate "
                                "python:toy_override:sleeping_context --out " +
                                run_dir.string(),
                            python_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 4u);
  expect_interleaved(rows, "python:toy_override:sleeping_context");
  expect_speedups(rows);
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_LT(rows[i].median_ms, 0.5) << "baseline " << rows[i].size_detail;
    EXPECT_GE(rows[i + 1].min_ms, 1.0) << "candidate " << rows[i + 1].size_detail;
    EXPECT_LT(*rows[i + 1].speedup, 0.5);
  }
}

// FlagGems overrides aten::conv2d, conv2d.padding, conv3d, count_nonzero's default overload,
// ne_.Tensor and _linalg_eigvals (which not_equal_'s and linalg_eigvals' composites call), and
// unpacks a conv's stride, padding and dilation per spatial dim, as torch's Python layer hands
// them over: the ops declare those operators (covered, not NOT_COVERED) and pass lists of one
// entry per dim (a failing row else).
TEST_F(RunCommandCandidate, OpsReachAnOverrideOfTheOverloadTheyCallWithPythonsArguments) {
  for (const char* op : {"conv2d", "conv2d_padding", "conv3d", "conv3d_padding", "count_nonzero",
                         "not_equal_", "linalg_eigvals", "exponential"}) {
    std::vector<ResultRow> rows;
    ASSERT_NO_FATAL_FAILURE(run_candidate(std::string("py_") + op, op, "float32",
                                          "python:toy_override:overloads_context", rows));
    expect_speedups(rows);
  }
}

TEST_F(RunCommandCandidate, AnOpTheCandidateLeavesToAtenIsNotCovered) {
  const auto run_dir = out("py_mul");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op mul --dtypes float32 --candidate python:toy_override "
                                "--out " +
                                run_dir.string(),
                            python_env());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 4u);
  expect_interleaved(rows, "python:toy_override");
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kSuccess);
    EXPECT_EQ(rows[i + 1].status, RowStatus::kNotCovered);
    EXPECT_FALSE(rows[i + 1].speedup.has_value());
    EXPECT_EQ(rows[i + 1].sample_count, 0);
    EXPECT_THAT(rows[i + 1].error, HasSubstr("not covered"));
  }
  std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(count_lines_starting(log, "SUCCESS "), 2);  // the baseline's numbers, Gems N/A
  for (const auto& line : lines_of(log)) {
    if (line.rfind("SUCCESS ", 0) == 0) {
      EXPECT_THAT(line, HasSubstr("N/A")) << line;
    }
  }
}

TEST_F(RunCommandCandidate, ARaisingOverrideIsAFailedRowAndTheRunGoesOn) {
  const auto run_dir = out("py_raise");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op add --dtypes float16,float32 --candidate "
                                "python:toy_override:raising_context --out " +
                                run_dir.string(),
                            python_env());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  auto rows = results(run_dir);
  ASSERT_EQ(rows.size(), 8u);  // 2 dtypes x 2 shapes x (baseline, candidate): nothing skipped
  expect_interleaved(rows, "python:toy_override:raising_context");
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kSuccess) << rows[i].error;
    EXPECT_EQ(rows[i + 1].status, RowStatus::kFailed);
    EXPECT_THAT(rows[i + 1].error, HasSubstr("ValueError: toy_override refuses to add"));
    EXPECT_FALSE(rows[i + 1].speedup.has_value());
  }
  std::string log = slurp(run_dir / "run.log");
  EXPECT_EQ(count_lines_starting(log, "FAILED "), 4);
  EXPECT_THAT(log, HasSubstr("refuses to add"));
  EXPECT_THAT(log, HasSubstr("8 rows, 4 failed"));
}

// A fused op declares the Python function a candidate may offer (OpDef::python_fn): the toy's
// silu_and_mul is timed where the op's composite would be.
TEST_F(RunCommandCandidate, AFunctionOfTheModuleCoversAFusedOp) {
  const auto run_dir = out("py_fn");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op silu_and_mul --dtypes float32 --candidate "
                                "python:toy_override --out " +
                                run_dir.string(),
                            python_env());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_FALSE(rows.empty());
  expect_interleaved(rows, "python:toy_override");
  expect_speedups(rows);
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_THAT(rows[i + 1].markers,
                ::testing::Contains("covered_by[python function toy_override.silu_and_mul]"));
    EXPECT_THAT(rows[i].markers, Not(::testing::Contains(HasSubstr("covered_by"))));
  }
}

// FlagGems registers some kernels under bare names without a schema (aten::bitwise_left_shift,
// aten::conv_transpose2d), which no call reaches: bitwise_left_shift stays not covered instead of
// timing ATen against itself, and conv_transpose2d is covered by the function FlagGems' benchmark
// calls.
TEST_F(RunCommandCandidate, AKernelUnderANameWithoutSchemaCoversNothing) {
  const std::string candidate = "python:toy_override:orphans_context";
  std::vector<ResultRow> rows;
  ASSERT_NO_FATAL_FAILURE(
      run_candidate("py_orphan_shift", "bitwise_left_shift", "int32", candidate, rows));
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kSuccess) << rows[i].error;
    EXPECT_EQ(rows[i + 1].status, RowStatus::kNotCovered) << rows[i + 1].error;
    EXPECT_FALSE(rows[i + 1].speedup.has_value());
  }

  ASSERT_NO_FATAL_FAILURE(
      run_candidate("py_orphan_conv", "conv_transpose2d", "float32", candidate, rows));
  expect_speedups(rows);
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_THAT(rows[i + 1].markers,
                ::testing::Contains("covered_by[python function toy_override.conv_transpose2d]"));
  }
}

// FlagGems' benchmark calls these functions itself (`gems_op=flag_gems._add_relu_`,
// `set_gems(flag_gems.instance_norm)`): its add_relu_ times the fused kernel, not its add and
// relu under ATen's composite, and it registers igammac under aten::special_gammaincc, which no
// igammac call reaches. Each op declares the function and is covered by it.
TEST_F(RunCommandCandidate, OpsFlagGemsTimesThroughItsFunctionsAreCoveredByThem) {
  for (const char* op :
       {"add_relu_", "igammac", "igammac_out", "cross_entropy_loss", "instance_norm"}) {
    std::vector<ResultRow> rows;
    ASSERT_NO_FATAL_FAILURE(
        run_candidate(std::string("py_fn_") + op, op, "float32", "python:toy_override", rows));
    expect_speedups(rows);
    const std::string covered = std::string("covered_by[python function toy_override.") +
                                (std::string(op) == "add_relu_" ? "_add_relu_" : op) + "]";
    for (size_t i = 0; i < rows.size(); i += 2) {
      EXPECT_THAT(rows[i + 1].markers, ::testing::Contains(covered)) << op;
    }
  }
}

TEST_F(RunCommandCandidate, AFusedOpWhoseFunctionTheModuleLacksIsNotCovered) {
  // reglu's composite calls aten::relu, which toy_override's scope overrides; it has no reglu.
  const auto run_dir = out("py_no_fn");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op reglu --dtypes float32 --candidate python:toy_override "
                                "--out " +
                                run_dir.string(),
                            python_env());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(run_dir);
  ASSERT_FALSE(rows.empty());
  expect_interleaved(rows, "python:toy_override");
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kSuccess);
    EXPECT_EQ(rows[i + 1].status, RowStatus::kNotCovered);
    EXPECT_EQ(rows[i + 1].error, "not covered: python:toy_override has no python function reglu");
  }
}

TEST_F(RunCommandCandidate, AFunctionWithAnotherResultIsAFailedRowNotATiming) {
  const auto run_dir = out("py_wrong_fn");
  RunCommandOutcome r = run(std::string(kQuick) +
                                " --op gelu_and_mul --dtypes float32 --candidate "
                                "python:toy_override --out " +
                                run_dir.string(),
                            python_env());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  auto rows = results(run_dir);
  ASSERT_FALSE(rows.empty());
  expect_interleaved(rows, "python:toy_override");
  for (size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kSuccess);
    EXPECT_EQ(rows[i + 1].status, RowStatus::kFailed);
    EXPECT_THAT(rows[i + 1].error,
                HasSubstr("python function toy_override.gelu_and_mul: result differs from the "
                          "baseline's"));
    EXPECT_EQ(rows[i + 1].sample_count, 0);
  }
}

TEST_F(RunCommandCandidate, LibraryCandidateCoversAddAndNotMul) {
  const std::string spec = std::string("library:") + CALIBER_EXAMPLE_LIBRARY;
  const auto add_dir = out("lib_add");
  RunCommandOutcome r = run(std::string(kQuick) + " --op add --dtypes float32 --candidate " + spec +
                            " --out " + add_dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto rows = results(add_dir);
  ASSERT_EQ(rows.size(), 4u);
  expect_interleaved(rows, spec);
  expect_speedups(rows);
  RunIdentity id = read_identity((add_dir / "run_identity.json").string());
  EXPECT_EQ(id.provider, spec);
  EXPECT_THAT(id.provider_version, AllOf(HasSubstr("sha256:"), HasSubstr("example 1.0")));

  const auto mul_dir = out("lib_mul");
  r = run(std::string(kQuick) + " --op mul --dtypes float32 --candidate " + spec + " --out " +
          mul_dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  rows = results(mul_dir);
  ASSERT_EQ(rows.size(), 4u);
  expect_interleaved(rows, spec);
  for (size_t i = 1; i < rows.size(); i += 2) {
    EXPECT_EQ(rows[i].status, RowStatus::kNotCovered);
    EXPECT_FALSE(rows[i].speedup.has_value());
  }
}

}  // namespace
}  // namespace caliber
