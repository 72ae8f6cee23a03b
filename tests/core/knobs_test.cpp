#include "core/knobs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/fake_env.h"

namespace caliber {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

using caliber::testing::env_of;

std::string usage_message(const FlagValues& flags, const EnvLookup& env) {
  try {
    resolve_knobs(flags, env);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(Knobs, DefaultsWhenNothingGiven) {
  Knobs k = resolve_knobs({}, env_of({}));
  EXPECT_EQ(k.level, Level::kCore);
  EXPECT_EQ(k.timer, Timer::kAuto);
  EXPECT_EQ(k.repeat, 1);
  EXPECT_TRUE(k.dtypes.empty());
  EXPECT_EQ(k.sources.at("level"), "default");
  EXPECT_EQ(k.policy, SamplePolicy::kAdaptive);
  EXPECT_EQ(k.warmup_ms, kAdaptiveWarmupMs);
  EXPECT_EQ(resolve_knobs({{"policy", "fixed"}}, env_of({})).warmup_ms, 25);
}

TEST(Knobs, AWarmupOrMeasuringTimeWithoutAPolicyAsksForFixedSampling) {
  Knobs k = resolve_knobs({{"rep_ms", "50"}}, env_of({}));
  EXPECT_EQ(k.policy, SamplePolicy::kFixed);
  EXPECT_EQ(k.sources.at("policy"), "--rep-ms");
  k = resolve_knobs({{"warmup_ms", "5"}, {"policy", "adaptive"}}, env_of({}));
  EXPECT_EQ(k.policy, SamplePolicy::kAdaptive);  // a policy given wins
}

TEST(Knobs, HonoursThePythonHarnessEnvironmentNames) {
  Knobs k = resolve_knobs({}, env_of({{"BENCH_LEVEL", "comprehensive"},
                                      {"DTYPES", "float16,bfloat16"},
                                      {"SHAPE_MODE", "builtin"},
                                      {"OP", "mm"},
                                      {"ZL_BACKEND", "cuda"},
                                      {"ZL_DIRECT_REPEAT", "5"},
                                      {"ZL_ENABLE_CUDAGRAPH", "0"},
                                      {"ZL_ISOLATE_TUNER_CACHE", "1"},
                                      {"USE_FLAGTUNE", "true"},
                                      {"PARALLEL_WARMUP_GPUS", "4"},
                                      {"REPLAY_FROM", "/tmp/earlier"}}));
  EXPECT_EQ(k.level, Level::kComprehensive);
  EXPECT_EQ(k.dtypes, (std::vector<DType>{DType::kFloat16, DType::kBFloat16}));
  EXPECT_EQ(k.shape_mode, ShapeMode::kBuiltin);
  EXPECT_EQ(k.op, "mm");
  EXPECT_EQ(k.backend, "cuda");
  EXPECT_EQ(k.repeat, 5);
  EXPECT_FALSE(k.enable_graph);
  EXPECT_TRUE(k.isolate_tuner_cache);
  EXPECT_TRUE(k.use_flagtune);
  EXPECT_EQ(k.parallel_warmup_gpus, 4);
  EXPECT_EQ(k.replay_from, "/tmp/earlier");
  EXPECT_EQ(k.sources.at("level"), "BENCH_LEVEL");
}

TEST(Knobs, FlushSizeIsPartOfTheColdCaliberAndNeedsIt) {
  Knobs k = resolve_knobs({{"cache", "cold"}, {"flush_mb", "256"}}, env_of({}));
  EXPECT_EQ(cache_caliber(k.cache, k.flush_mb, FlushMethod::kWrite), "cold,flush_mb=256");
  Knobs d = resolve_knobs({{"cache", "cold"}}, env_of({}));
  EXPECT_EQ(cache_caliber(d.cache, d.flush_mb, FlushMethod::kWrite), "cold");
  EXPECT_THAT(usage_message({{"flush_mb", "256"}}, env_of({})),
              HasSubstr("--flush-mb: '256' sizes the flush of the cold cache"));
  EXPECT_THAT(usage_message({{"cache", "cold"}, {"flush_mb", "-1"}}, env_of({})),
              HasSubstr("--flush-mb"));
}

TEST(Knobs, FlushMethodDefaultsToTheDocumentedOneAndComesFromFlagOrEnvironment) {
  Knobs d = resolve_knobs({{"cache", "cold"}}, env_of({}));
  EXPECT_EQ(d.flush_method, kDefaultFlushMethod);
  EXPECT_EQ(d.sources.at("flush_method"), "default");
  Knobs f = resolve_knobs({{"cache", "cold"}, {"flush_method", "read"}},
                          env_of({{"CALIBER_FLUSH_METHOD", "write"}}));
  EXPECT_EQ(f.flush_method, FlushMethod::kRead);
  EXPECT_EQ(f.sources.at("flush_method"), "--flush-method");
  Knobs e = resolve_knobs({{"cache", "cold"}}, env_of({{"CALIBER_FLUSH_METHOD", "Write_Read"}}));
  EXPECT_EQ(e.flush_method, FlushMethod::kWriteRead);
  EXPECT_EQ(e.sources.at("flush_method"), "CALIBER_FLUSH_METHOD");
}

TEST(Knobs, GraphUploadIsOffUnlessTheFlagOrTheEnvironmentTurnsItOn) {
  Knobs d = resolve_knobs({}, env_of({}));
  EXPECT_FALSE(d.graph_upload);
  Knobs f = resolve_knobs({{"graph_upload", "1"}}, env_of({{"CALIBER_GRAPH_UPLOAD", "0"}}));
  EXPECT_TRUE(f.graph_upload);
  EXPECT_EQ(f.sources.at("graph_upload"), "--graph-upload");
  Knobs e = resolve_knobs({}, env_of({{"CALIBER_GRAPH_UPLOAD", "true"}}));
  EXPECT_TRUE(e.graph_upload);
  EXPECT_EQ(e.sources.at("graph_upload"), "CALIBER_GRAPH_UPLOAD");
  EXPECT_THAT(usage_message({{"graph_upload", "maybe"}}, env_of({})),
              AllOf(HasSubstr("--graph-upload: 'maybe' is not accepted"),
                    HasSubstr("accepted: 1, 0, true, false")));
}

TEST(Knobs, GraphWarmEachAndTheTwoMsFloorAreTheDefaultsAndEitherCanBeTurnedBack) {
  Knobs d = resolve_knobs({}, env_of({}));
  EXPECT_TRUE(d.graph_warm_each);
  EXPECT_DOUBLE_EQ(d.min_time_s, 0.002);
  Knobs f = resolve_knobs({{"graph_warm_each", "0"}, {"min_time_s", "0.005"}},
                          env_of({{"CALIBER_GRAPH_WARM_EACH", "1"}}));
  EXPECT_FALSE(f.graph_warm_each);
  EXPECT_DOUBLE_EQ(f.min_time_s, 0.005);
  EXPECT_EQ(f.sources.at("graph_warm_each"), "--graph-warm-each");
  Knobs e = resolve_knobs({}, env_of({{"CALIBER_GRAPH_WARM_EACH", "false"}}));
  EXPECT_FALSE(e.graph_warm_each);
  EXPECT_THAT(usage_message({{"graph_warm_each", "2"}}, env_of({})),
              HasSubstr("--graph-warm-each: '2' is not accepted"));
}

TEST(Knobs, BadFlushMethodListsTheAcceptedMethods) {
  std::string msg = usage_message({{"cache", "cold"}, {"flush_method", "invalidate"}}, env_of({}));
  EXPECT_THAT(msg, HasSubstr("--flush-method: 'invalidate' is not accepted"));
  EXPECT_THAT(msg, HasSubstr("accepted: write, read, write_read"));
  EXPECT_THAT(usage_message({{"cache", "cold"}}, env_of({{"CALIBER_FLUSH_METHOD", "zero"}})),
              HasSubstr("CALIBER_FLUSH_METHOD: 'zero' is not accepted"));
}

TEST(Knobs, FlushMethodFlagNeedsTheColdCacheButTheEnvironmentDefaultDoesNot) {
  EXPECT_THAT(usage_message({{"flush_method", "read"}}, env_of({})),
              HasSubstr("--flush-method: 'read' chooses the flush of the cold cache"));
  Knobs hot = resolve_knobs({}, env_of({{"CALIBER_FLUSH_METHOD", "read"}}));
  EXPECT_EQ(hot.cache, CacheState::kHot);
}

TEST(Knobs, FlushMethodOtherThanWriteIsPartOfTheColdCaliber) {
  EXPECT_EQ(cache_caliber(CacheState::kCold, 0, FlushMethod::kRead), "cold,flush=read");
  EXPECT_EQ(cache_caliber(CacheState::kCold, 256, FlushMethod::kWriteRead),
            "cold,flush_mb=256,flush=write_read");
  // A bare "cold" keeps meaning the write flush of every earlier artifact.
  EXPECT_EQ(cache_caliber(CacheState::kCold, 0, FlushMethod::kWrite), "cold");
  EXPECT_EQ(cache_caliber(CacheState::kHot, 0, FlushMethod::kRead), "hot");
}

TEST(Knobs, FlagWinsOverEnvironment) {
  Knobs k = resolve_knobs({{"level", "core"}}, env_of({{"BENCH_LEVEL", "comprehensive"}}));
  EXPECT_EQ(k.level, Level::kCore);
  EXPECT_EQ(k.sources.at("level"), "--level");
}

TEST(Knobs, BadLevelNamesKnobValueAndAccepted) {
  std::string msg = usage_message({{"level", "full"}}, env_of({}));
  EXPECT_THAT(msg, HasSubstr("--level"));
  EXPECT_THAT(msg, HasSubstr("'full'"));
  EXPECT_THAT(msg, HasSubstr("core, comprehensive"));
}

TEST(Knobs, BadLevelFromEnvironmentNamesTheVariable) {
  std::string msg = usage_message({}, env_of({{"BENCH_LEVEL", "full"}}));
  EXPECT_THAT(msg, HasSubstr("BENCH_LEVEL"));
}

TEST(Knobs, BadDtypeListsAcceptedDtypes) {
  std::string msg = usage_message({{"dtypes", "float16,float17"}}, env_of({}));
  EXPECT_THAT(msg, HasSubstr("--dtypes"));
  EXPECT_THAT(msg, HasSubstr("'float17'"));
  EXPECT_THAT(msg, HasSubstr("bfloat16"));
}

TEST(Knobs, NegativeOrZeroRepeatRejected) {
  EXPECT_THAT(usage_message({{"repeat", "-1"}}, env_of({})), HasSubstr("an integer >= 1"));
  EXPECT_THAT(usage_message({}, env_of({{"ZL_DIRECT_REPEAT", "0"}})),
              HasSubstr("ZL_DIRECT_REPEAT"));
  EXPECT_THAT(usage_message({{"repeat", "3x"}}, env_of({})), HasSubstr("'3x'"));
}

TEST(Knobs, BadTimerCachePolicyTunerRejected) {
  EXPECT_THAT(usage_message({{"timer", "cupti"}}, env_of({})), HasSubstr("graph, direct"));
  EXPECT_THAT(usage_message({{"cache", "warm"}}, env_of({})), HasSubstr("hot, cold"));
  EXPECT_THAT(usage_message({{"policy", "smart"}}, env_of({})), HasSubstr("fixed, adaptive"));
  EXPECT_THAT(usage_message({{"tuner", "on"}}, env_of({})), HasSubstr("off, record, replay"));
  EXPECT_THAT(usage_message({}, env_of({{"ZL_ENABLE_CUDAGRAPH", "maybe"}})),
              HasSubstr("ZL_ENABLE_CUDAGRAPH"));
}

TEST(Knobs, QuantilesMustLieInUnitInterval) {
  Knobs k = resolve_knobs({{"quantiles", "0.2,0.5,0.8"}}, env_of({}));
  EXPECT_EQ(k.quantiles, (std::vector<double>{0.2, 0.5, 0.8}));
  EXPECT_THAT(usage_message({{"quantiles", "0.5,1.5"}}, env_of({})), HasSubstr("[0, 1]"));
}

TEST(Knobs, DtypeAliasesAndTorchNamesAccepted) {
  Knobs k = resolve_knobs({{"dtypes", "torch.float16, bf16,FP32"}}, env_of({}));
  EXPECT_EQ(k.dtypes, (std::vector<DType>{DType::kFloat16, DType::kBFloat16, DType::kFloat32}));
}

TEST(Knobs, OpFileNamesTheOpWhenNoOpIsGiven) {
  Knobs k = resolve_knobs({}, env_of({{"OP_FILE", "benchmark/test_mm.py"}}));
  EXPECT_EQ(k.op, "mm");
  EXPECT_EQ(k.sources.at("op"), "OP_FILE");
  // OP wins: the file only names the op when nothing else does.
  k = resolve_knobs({}, env_of({{"OP_FILE", "test_mm.py"}, {"OP", "mm_out"}}));
  EXPECT_EQ(k.op, "mm_out");
  EXPECT_THAT(usage_message({}, env_of({{"OP_FILE", "mm.py"}})),
              AllOf(HasSubstr("OP_FILE"), HasSubstr("'mm.py'"), HasSubstr("test_<op>.py")));
}

TEST(Knobs, FlagGemsRecordMetricsAndUpstreamShapes) {
  Knobs k = resolve_knobs({{"record", "log"}, {"metrics", "latency,tflops"}},
                          env_of({{"SHAPE_MODE", "upstream"}}));
  EXPECT_EQ(k.record, RecordFormat::kLog);
  EXPECT_EQ(k.metrics, (std::vector<std::string>{"latency", "tflops"}));
  EXPECT_TRUE(k.shape_upstream);
  EXPECT_EQ(k.shape_mode, ShapeMode::kFile);
  EXPECT_THAT(usage_message({{"shape_mode", "remote"}}, env_of({})),
              HasSubstr("accepted: file, builtin, upstream"));
  EXPECT_THAT(usage_message({{"record", "csv"}}, env_of({})),
              AllOf(HasSubstr("--record"), HasSubstr("none, log, json")));
  EXPECT_THAT(usage_message({{"metrics", "latency,fast"}}, env_of({})),
              AllOf(HasSubstr("--metrics"), HasSubstr("'fast'")));
}

TEST(Knobs, DeviceApiAndBackendLibraryFromFlagsOrEnvironment) {
  Knobs k = resolve_knobs({{"device_api", "generic"}},
                          env_of({{"CALIBER_BACKEND_LIBRARY", "python:torch_opencl"}}));
  EXPECT_EQ(k.device_api, DeviceApiKind::kGeneric);
  EXPECT_EQ(k.backend_library, "python:torch_opencl");
  EXPECT_EQ(resolve_knobs({}, env_of({})).device_api, DeviceApiKind::kAuto);
  EXPECT_THAT(
      usage_message({{"device_api", "vendor"}}, env_of({})),
      HasSubstr("--device-api: 'vendor' is not accepted (accepted: auto, native, generic)"));
}

}  // namespace
}  // namespace caliber
