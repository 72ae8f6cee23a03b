#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/activities_per_call.h"
#include "core/caliber_options.h"
#include "core/result_row.h"

namespace caliber {

// What one measurement produced, with its caliber: which timer really ran (after any fallback),
// the cache state and sampling policy, every sample, and the markers that qualify the number.
struct Measurement {
  Timer timer_used = Timer::kDirect;
  CacheState cache = CacheState::kHot;
  double flush_mb = 0;  // cold: the flush's size and method, part of the cache caliber
  FlushMethod flush_method = kDefaultFlushMethod;
  SamplePolicy policy = SamplePolicy::kFixed;
  ReturnMode return_mode = ReturnMode::kMedian;

  std::vector<double> samples_ms;  // every sample of every repeat, in the order taken
  std::vector<bool> throttled;     // parallel to samples_ms
  std::vector<double> repeat_medians_ms;
  int repeat = 1;            // repeats actually taken
  int calls_per_sample = 1;  // graph: calls per replay; batch: calls per released batch
  int warmup_calls = 0;
  double warmup_ms = 0;

  double latency_ms = 0;  // by return_mode; a median of per-repeat statistics when repeat > 1
  double median_ms = 0;   // median of per-repeat medians
  double mean_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double noise = 0;  // relative noise of the median estimate over all samples
  std::vector<std::pair<double, double>> quantiles_ms;
  int throttled_samples = 0;
  int sm_clock_min_mhz = 0;  // lowest / highest SM clock the throttle guard read; 0: not read
  int sm_clock_max_mhz = 0;
  std::vector<std::string> markers;
  double wall_s = 0;
  double capture_ms = 0;   // graph timer: host time of the captures (their side-stream warmup too)
  int graph_captures = 0;  // graph timer: graphs sampled in turn (0: another timer)
  // (max - min) / median of the captures' own medians: how much the number depends on which
  // capture it came from (0 with one capture).
  double capture_spread = 0;
  // `kernel` timer: the device work of one call by kind, over every sampled call.
  std::optional<ActivitiesPerCall>
      activities;  // the whole measurement, warmup and capture included
  // --selftest-delay: the device delay added per call and the slowdown it caused, measured
  // against the same graph without it in the same process.
  std::optional<double> selftest_delay_us;
  std::optional<double> selftest_slowdown;
};

// Fills the statistics of `m` from the samples of each repeat. `quantiles` are computed over all
// samples (the skip rule guarantees a single repeat when they are asked for).
void summarize(const std::vector<std::vector<double>>& runs, ReturnMode mode,
               const std::vector<double>& quantiles, Measurement& m);

// Copies the caliber and statistics into a results row; markers are appended to the row's.
void fill_result_row(const Measurement& m, ResultRow& row);

}  // namespace caliber
