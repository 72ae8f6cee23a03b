#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/caliber_options.h"
#include "core/device_api_choice.h"
#include "core/dtype.h"
#include "core/record_format.h"

namespace caliber {

// Every setting a user can give, resolved from flags first, then the environment names the
// Python harness honoured, then defaults. Validation happens here, before any device work.
struct Knobs {
  std::string backend;  // as given (an alias is fine); empty: choose automatically
  Level level = Level::kCore;
  std::vector<DType> dtypes;  // empty: each op's default dtypes
  ShapeMode shape_mode = ShapeMode::kFile;
  // SHAPE_MODE=upstream: the files of the candidate's own checkout (FlagGems'
  // benchmark/core_shapes.yaml) instead of caliber's shapes/, so a run measures the shapes of the
  // version under test; shape_mode is then kFile.
  bool shape_upstream = false;
  std::string shape_file;
  std::string op;
  std::string node;  // OP::VARIANT
  Timer timer = Timer::kAuto;
  bool enable_graph = true;  // ZL_ENABLE_CUDAGRAPH=0 makes `auto` skip graph capture
  CacheState cache = CacheState::kHot;
  // Adaptive: a screen at the speed of its stable rows (docs/results.md, issue 19). A --warmup-ms
  // or --rep-ms without a --policy asks for fixed sampling (they size it).
  SamplePolicy policy = SamplePolicy::kAdaptive;
  ReturnMode return_mode = ReturnMode::kMedian;
  std::vector<double> quantiles;
  int repeat = 1;
  // Fixed policy: 25 ms, as do_bench. Adaptive: 5 ms unless given; the first calls do the lazy
  // work (autotuning, handles, module loads) and a screen keeps the clocks up between rows.
  double warmup_ms = 25;
  double rep_ms = 100;
  double noise_target = 0.005;  // adaptive policy: relative noise of the estimate
  int min_samples = 10;
  // Adaptive policy: the least sampling time. A graph row's replays of one capture agree to a few
  // 0.01%, so past one round of the captures more replays add time and no information: 2 ms is
  // one round of the 8 captures' 0.25 ms replays, where 5 ms took 3. One round reads the graphs'
  // own caches only with each graph warmed before its timed replays (graph_warm_each;
  // docs/measurement.md, docs/results.md's twenty-fourth session).
  double min_time_s = 0.002;
  double max_time_s = 1.0;
  double throttle_fraction = 0.9;
  // Cold cache: MiB overwritten before each sample; 0 is the device's own choice (twice the L2 on
  // CUDA). triton's do_bench overwrites 256 MB, and a host-bound call hides behind it.
  double flush_mb = 0;
  // Cold cache: how the flush empties the cache (write, read, write_read; caliber_options.h).
  FlushMethod flush_method = kDefaultFlushMethod;
  // Selftest: every graph-timed row is made slower on the device by this fraction of its own
  // time (0.05: 5%), to measure how often compare finds a known regression (docs/results.md, issue
  // 19).
  double selftest_delay = 0;
  int graph_captures = kDefaultGraphCaptures;  // graph timer: graphs captured per measurement
  // Graph timer: upload each graph as it is captured, so that no timed replay carries the upload
  // the runtime otherwise makes at a graph's first launch (docs/measurement.md, Sampling policy).
  bool graph_upload = false;
  // Graph timer: each graph replayed once untimed before its timed replays in each batch
  // (GraphSettings::warm_each), so that none is timed right after another graph's replay.
  bool graph_warm_each = true;
  TunerMode tuner = TunerMode::kOff;
  std::string tuner_file;
  bool isolate_tuner_cache = false;
  bool use_flagtune = false;
  int parallel_warmup_gpus = 0;
  // The warm pass's runs (`caliber batch --warm-pass`): each case's inputs and one call of the
  // candidate, untimed, so that its JIT compiles before the measured run; no rows.
  bool warm_only = false;
  std::string replay_from;
  int device = 0;
  std::string out_dir;
  std::string candidate;
  std::string shard;  // "I/N": this run takes every N-th case starting at I (parallel warmup)
  // FlagGems' record formats beside caliber's artifacts (core/flaggems_record.h).
  RecordFormat record = RecordFormat::kNone;
  std::vector<std::string> metrics;  // FlagGems' --metrics: the record's fields; empty: default
  // The old harness's OP_FILE (`test_mm.py`): the FlagGems test file of the op; names the op
  // when no OP, --op or TEST_NODE does.
  std::string op_file;
  DeviceApiKind device_api = DeviceApiKind::kAuto;
  // An out-of-tree backend to load before any device work: a shared library, or python:MODULE.
  std::string backend_library;

  // knob name -> where its value came from ("--level", "BENCH_LEVEL" or "default").
  std::map<std::string, std::string> sources;
};

// The adaptive policy's warmup when --warmup-ms is not given (docs/results.md, issue 19): the
// first call takes JIT and autotuning, and the graph timer's captures, milliseconds of host work
// with the device idle, come between the warmup and the samples, so a longer warmup bought a
// short call's row its time and nothing the samples could read.
constexpr double kAdaptiveWarmupMs = 2;

// One row of the knob table: its name, its flag, the environment name it honours, and what it
// accepts (for --help and error messages).
struct KnobDef {
  std::string name;
  std::string flag;
  std::string env;  // empty when no environment name is honoured
  std::string accepted;
  std::function<void(Knobs&, const std::string& label, const std::string& value)> apply;
};

const std::vector<KnobDef>& knob_table();
const KnobDef& knob_def(const std::string& name);

using FlagValues = std::map<std::string, std::string>;  // knob name -> raw flag text
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

EnvLookup process_env();

// Resolves the named knobs (all when `names` is empty); throws a usage Error naming the knob,
// the value and what is accepted.
// "test_mm.py" (or "benchmark/test_mm.py") -> "mm"; a usage Error naming `label` for a name
// that is not test_<op>.py.
std::string op_of_test_file(const std::string& label, const std::string& file);

Knobs resolve_knobs(const FlagValues& flags, const EnvLookup& env,
                    const std::vector<std::string>& names = {});

}  // namespace caliber
