#pragma once

#include <string>
#include <vector>

#include "backend/failure_classifier.h"
#include "core/caliber_options.h"
#include "timing/stopping_rule.h"

namespace caliber {

// Explicit warmup before capture (autotune, JIT, library handles) and how many calls one graph
// holds: enough to make a replay long against its launch, few enough to capture quickly.
struct GraphSettings {
  int warmup_calls = 3;
  double warmup_ms = 25;
  double replay_target_ms = 2;  // shared by the captures (see min_replay_ms)
  double min_replay_ms = 0.25;  // the shortest replay a graph is sized for
  int max_calls_per_graph = 500;
  // Graphs captured per measurement, their replays sampled in turn. One capture's replay time
  // is stable to a few 0.01% but differs from the next capture's by up to 3% (the graph's memory
  // and launch layout), so a single capture's number is one draw of that spread. Fewer are kept
  // when another would not fit in the device's memory.
  int captures = kDefaultGraphCaptures;
  // Adaptive policy: more graphs, up to max_captures, while the standard error of the mean of the
  // captures' medians is above this fraction of it (0: never more than `captures`). The timer
  // validation allows a CV of 0.5% across measurements (1.5% under 20 us, where the target is
  // three times this); a third of that leaves room for what the replays add.
  double capture_noise_target = 0.0015;
  int max_captures = 32;
  // Each graph uploaded as it is captured (CapturedGraph::upload): otherwise every graph but the
  // first is timed at its first launch, which carries the upload.
  bool upload = false;
  // Each graph of a batch replayed once untimed right before its timed replays, for graphs of
  // under a millisecond in a hot cache. A replay that follows another graph's finds that graph's
  // buffers in the cache, not its own, and reads slower than the next replay of the same graph
  // (up to 5% for convolutions and losses of 10-100 us on an H200); the batch's lead warms only
  // the first graph, so the others' first replays of each batch carry it (docs/measurement.md).
  bool warm_each = false;
};

// Calls per released batch: long enough to hide the release, few enough to stay well inside
// the driver's launch queue (a full queue blocks the host like a synchronising call would).
struct BatchSettings {
  double target_ms = 1;
  int max_calls = 32;
  double timeout_s = 2;
};

// Everything a measurement needs besides the device, the plan and the call.
struct MeasureOptions {
  std::string op;  // for messages and BENCHMARK_CAPTURE_POISONED
  FailureClassifier classifier{{}};
  bool capture_denied = false;  // the op is on the capture deny list: never attempt a capture
  CacheState cache = CacheState::kHot;
  double flush_mb = 0;  // cold cache: MiB flushed before each sample; 0: the device's size
  FlushMethod flush_method = kDefaultFlushMethod;
  double selftest_delay = 0;  // graph timer: add this fraction of the row's time on the device
  SamplingSettings sampling;
  ReturnMode return_mode = ReturnMode::kMedian;
  std::vector<double> quantiles;
  int repeat = 1;  // direct (and host) timer: median of `repeat` whole measurements
  // Calls of the call made on the same inputs just before the measurement (the engine's untimed
  // call, which took the first call's JIT and autotuning): the warmup counts them (warmup.h).
  int calls_made = 0;
  double throttle_fraction = 0.9;
  GraphSettings graph;
  BatchSettings batch;
};

}  // namespace caliber
