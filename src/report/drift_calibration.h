#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/result_row.h"
#include "report/run_collection.h"
#include "report/verdict.h"

namespace caliber {

// Two screens of one build differ by more than their own samples say: clocks, the allocator's
// layout and the host's state move between processes minutes apart, so a row's bootstrap
// interval is too narrow for a verdict between runs. An A/A calibration measures that drift from
// screens of one build and widens each row's "no difference" band to cover it, so FAST and SLOW
// mean "beyond what the same build does twice".
//
// A row's need is the smallest band that keeps its A/A interval inside it (0 when the interval
// holds 1). Rows are grouped in classes by timer used and latency decade; a class's band is the
// (1 - target/2) quantile of its rows' needs (the two sides share the target), and never below a
// normal model's 3 sigma of its A/A log speedups. A row seen in the calibration also keeps its
// own need, widened by `kRowSafety`: a row that drifts is likely to drift again.
struct DriftClass {
  std::string timer;  // timer used: graph, direct, ...
  int decade = 0;     // floor(log10(median us)), clamped to [-1, 4]
  size_t rows = 0;
  double band = 0;  // relative: 0.01 is 1%
};

struct DriftCalibration {
  std::string device_model;
  std::string policy;
  std::string timer;  // the screens' requested timer
  std::vector<std::string> screens;
  std::string created;  // UTC
  double target_rate = 0.005;
  size_t rows = 0;               // row pairs the calibration saw
  double in_sample_rate = 0;     // FAST + SLOW over those pairs at the class bands
  double uncalibrated_rate = 0;  // the same pairs judged without bands
  std::vector<DriftClass> classes;
  std::map<std::string, double> row_needs;  // row key -> its largest A/A need

  static constexpr double kRowSafety = 1.5;

  // The band for a row timed by `timer_used` at `median_ms`, with key `key` (row_key()).
  double band_for(const std::string& key, const std::string& timer_used, double median_ms) const;
  double band_for_decade(const std::string& key, const std::string& timer_used, int decade) const;
};

// The row identity calibrations and compare share: op, dtype, provider, shape and the order of
// repeated shapes.
std::string row_key(const ResultRow& row, int occurrence);

// The decade class of a latency.
int latency_decade(double median_ms);

struct CalibrationOptions {
  VerdictOptions verdict;  // the interval the needs are measured with
  double target_rate = 0.005;
};

// Learns the bands from two or more screens of one build (every pair is compared). Throws a
// usage error for fewer than two screens or screens whose calibers differ.
DriftCalibration calibrate_drift(const std::vector<RunCollection>& screens,
                                 const CalibrationOptions& options);

nlohmann::json to_json(const DriftCalibration& calibration);
DriftCalibration drift_calibration_from_json(const nlohmann::json& json);
DriftCalibration read_drift_calibration(const std::string& path);

// The shipped calibration for a device model (data_dir()/calibration/<model>.json, the model
// lower-cased with spaces as '-'), when there is one.
std::optional<std::string> shipped_calibration_for(const std::string& device_model);

}  // namespace caliber
