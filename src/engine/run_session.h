#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend_descriptor.h"
#include "backend/device_info.h"
#include "backend/timer_plan.h"
#include "core/caliber_options.h"
#include "core/dtype.h"
#include "core/run_identity.h"
#include "core/shape_set.h"
#include "engine/provider/provider.h"
#include "engine/run_sink.h"
#include "ops/op_def.h"
#include "timing/device_api.h"
#include "timing/measure_options.h"

namespace caliber {

// Everything one run needs, typed and validated before any device work (the CLI converts the
// knobs into it).
struct RunConfig {
  const OpDef* op = nullptr;
  const BackendDescriptor* backend = nullptr;
  int device_index = 0;
  DeviceInfo device;
  bool generic_device_api = false;  // PyTorch's device-generic DeviceApi (--device-api)
  TimerPlan timers;
  MeasureOptions measure;
  std::vector<DType> dtypes;
  ShapeSet shapes;
  std::vector<size_t> case_indices;  // the cases this run takes (after --shard)
  std::string level;                 // for the tables' headings
  TunerMode tuner = TunerMode::kOff;
  std::string tuner_file;
  std::filesystem::path peaks_file;  // where the device's peaks are cached
  std::string state_dir;             // for ops that keep state across attempts
  // A device context of the run's own instead of the process's shared one (the way every run
  // opened the device before contexts were shared; CALIBER_FRESH_DEVICE_CONTEXT=1), so that the
  // sharing can be measured against it on one machine.
  bool fresh_device_context = false;
  // Each case's inputs and one untimed call of the candidate (the baseline's without one), no
  // rows, no peaks, no tuner: a warm pass's run (Knobs::warm_only).
  bool warm_only = false;
  std::filesystem::path artifacts;  // named by the end banner
};

// Whether the allocator's cache goes back to the device after a dtype's cases: after the op's
// last dtype or a fatal error, so that a sweep does not grow device memory from op to op; after
// another dtype only where less than half the device is free (the graph timer's rule before a
// first capture) or its memory cannot be read. The next dtype's cases reuse the cache otherwise,
// and handing it back after every dtype cost an op tens of milliseconds on an H200.
bool releases_cache_after_dtype(bool last_dtype, bool fatal,
                                const std::optional<DeviceMemory>& memory);

// One run of one op: opens the device (the process's shared DeviceContext), measures every case
// dtype by dtype (CaseRunner), and hands the rows to its sinks as they come. Returns the exit code:
// 0 every row succeeded, 1 some failed, 3 device fatal (the run stops; what was written stays
// valid).
class RunSession {
 public:
  // `candidate` may be null (the baseline only).
  RunSession(const RunConfig& config, Provider* candidate, std::vector<RunSink*> sinks)
      : config_(config), candidate_(candidate), sinks_(std::move(sinks)) {}

  // `identity` is complete but for its end time, which the session sets; the end banner's wall
  // time counts from `started` (the plan and the candidate's import included).
  int run(RunIdentity identity, const std::string& banner,
          std::chrono::steady_clock::time_point started);

 private:
  template <typename F>
  void each_sink(F&& f) {
    for (RunSink* sink : sinks_) f(*sink);
  }

  const RunConfig& config_;
  Provider* candidate_;
  std::vector<RunSink*> sinks_;
};

}  // namespace caliber
