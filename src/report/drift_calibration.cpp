#include "report/drift_calibration.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/choice.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/stats.h"
#include "report/compare.h"

namespace caliber {

using nlohmann::json;

namespace {

// A normal model's two-sided 0.27%: the floor of a class band in robust sigmas.
constexpr double kSigmas = 3.0;
constexpr int kLowestDecade = -1;  // below 1 us: one class
constexpr int kHighestDecade = 4;  // 10 ms and above: one class

// The band that would have kept this pair's interval from excluding "no change".
double need_of(const SampleComparison& s) {
  double fast = s.ci_low - 1;       // the interval lies above 1 + band while band < this
  double slow = 1 / s.ci_high - 1;  // ... below 1 / (1 + band)
  return std::max({fast, slow, 0.0});
}

bool judged_beyond(const SampleComparison& s, double band) {
  return s.ci_low > 1 + band || s.ci_high < 1 / (1 + band);
}

std::string class_key(const std::string& timer, int decade) {
  return fmt::format("{}/{}", timer, decade);
}

void check_same_caliber(const std::vector<RunCollection>& screens) {
  const RunIdentity* first = screens.front().any_identity();
  for (const auto& s : screens) {
    const RunIdentity* id = s.any_identity();
    if (first == nullptr || id == nullptr) {
      throw_usage(
          "calibrate: {} has no run_identity.json (accepted: run or batch directories "
          "caliber wrote)",
          (id == nullptr ? s : screens.front()).root);
    }
    auto diff = identity_differences(*first, *id, number_changing_fields());
    if (!diff.empty()) {
      throw_usage(
          "calibrate: {} and {} differ in {} (accepted: screens of one caliber, as an "
          "A/A pair is)",
          screens.front().root, s.root, fmt::join(diff, ", "));
    }
  }
}

}  // namespace

std::string row_key(const ResultRow& row, int occurrence) {
  return fmt::format("{}|{}|{}|{}|{}", row.op, row.dtype, row.provider, shape_label(row),
                     occurrence);
}

int latency_decade(double median_ms) {
  if (!(median_ms > 0)) return kLowestDecade;
  int decade = static_cast<int>(std::floor(std::log10(median_ms * 1e3)));
  return std::clamp(decade, kLowestDecade, kHighestDecade);
}

double DriftCalibration::band_for(const std::string& key, const std::string& timer_used,
                                  double median_ms) const {
  return band_for_decade(key, timer_used, latency_decade(median_ms));
}

double DriftCalibration::band_for_decade(const std::string& key, const std::string& timer_used,
                                         int decade) const {
  double band = -1;
  for (const auto& c : classes) {
    if (c.timer == timer_used && c.decade == decade) band = c.band;
  }
  if (band < 0) {
    // A class the calibration never saw: the widest band it knows for that timer, else any.
    for (const auto& c : classes) {
      if (c.timer == timer_used) band = std::max(band, c.band);
    }
    if (band < 0) {
      for (const auto& c : classes) band = std::max(band, c.band);
    }
  }
  band = std::max(band, 0.0);
  if (auto it = row_needs.find(key); it != row_needs.end()) {
    band = std::max(band, kRowSafety * it->second);
  }
  return band;
}

DriftCalibration calibrate_drift(const std::vector<RunCollection>& screens,
                                 const CalibrationOptions& options) {
  if (screens.size() < 2) {
    throw_usage("calibrate: {} screen(s) given (accepted: two or more screens of one build)",
                screens.size());
  }
  check_same_caliber(screens);
  DriftCalibration cal;
  const RunIdentity& id = *screens.front().any_identity();
  cal.device_model = id.device_model;
  cal.policy = id.policy;
  cal.timer = id.timer;
  cal.target_rate = options.target_rate;
  cal.created = utc_now_iso8601();
  for (const auto& s : screens) cal.screens.push_back(s.root);

  CompareOptions compare_options;
  compare_options.verdict = options.verdict;
  compare_options.calibration_choice = "none";
  struct Judged {
    std::string key;
    std::string timer;
    int decade;
    SampleComparison stats;
  };
  std::vector<Judged> judged;
  size_t uncalibrated_false = 0;
  for (size_t i = 0; i < screens.size(); ++i) {
    for (size_t j = i + 1; j < screens.size(); ++j) {
      Comparison c = compare_runs(screens[i], screens[j], compare_options);
      for (const auto& r : c.rows) {
        if (r.pairing != Pairing::kCompared || r.stats.ci_high <= 0) continue;
        if (r.stats.verdict == Verdict::kFast || r.stats.verdict == Verdict::kSlow) {
          ++uncalibrated_false;
        }
        double median_ms = headline_ms(*r.a);
        judged.push_back(
            {row_key(*r.a, r.occurrence), r.a->timer_used, latency_decade(median_ms), r.stats});
      }
    }
  }
  cal.rows = judged.size();
  if (judged.empty()) {
    throw_usage(
        "calibrate: the screens share no measured rows with samples (accepted: screens "
        "of the same ops, written as results.jsonl)");
  }

  std::map<std::string, std::vector<const Judged*>> by_class;
  for (const auto& j : judged) {
    by_class[class_key(j.timer, j.decade)].push_back(&j);
    double& need = cal.row_needs[j.key];
    need = std::max(need, need_of(j.stats));
  }
  for (const auto& [key, members] : by_class) {
    std::vector<double> needs;
    std::vector<double> logs;
    for (const Judged* j : members) {
      needs.push_back(need_of(j->stats));
      logs.push_back(std::log(j->stats.speedup));
    }
    double quantile_band = quantile(needs, 1 - options.target_rate / 2);
    double model_band = std::exp(kSigmas * mad_sigma(logs)) - 1;
    cal.classes.push_back({members.front()->timer, members.front()->decade, members.size(),
                           std::max({quantile_band, model_band, 0.0})});
  }
  // Rows whose widened need the class band already covers add nothing; keeping only the others
  // keeps the file small.
  std::map<std::string, double> class_band_of_row;
  for (const auto& j : judged) {
    for (const auto& c : cal.classes) {
      if (c.timer == j.timer && c.decade == j.decade) class_band_of_row[j.key] = c.band;
    }
  }
  for (auto it = cal.row_needs.begin(); it != cal.row_needs.end();) {
    bool covered = DriftCalibration::kRowSafety * it->second <= class_band_of_row[it->first];
    it = covered ? cal.row_needs.erase(it) : std::next(it);
  }

  size_t calibrated_false = 0;
  // The class bands alone: a row's own need would explain its own pair away.
  for (const auto& j : judged) {
    double band = options.verdict.min_effect;
    for (const auto& c : cal.classes) {
      if (c.timer == j.timer && c.decade == j.decade) band = std::max(band, c.band);
    }
    if (judged_beyond(j.stats, band)) ++calibrated_false;
  }
  cal.in_sample_rate = static_cast<double>(calibrated_false) / static_cast<double>(judged.size());
  cal.uncalibrated_rate =
      static_cast<double>(uncalibrated_false) / static_cast<double>(judged.size());
  return cal;
}

json to_json(const DriftCalibration& c) {
  json classes = json::array();
  for (const auto& k : c.classes) {
    classes.push_back(
        {{"timer", k.timer}, {"decade", k.decade}, {"rows", k.rows}, {"band", k.band}});
  }
  return {{"kind", "caliber A/A drift calibration"},
          {"device_model", c.device_model},
          {"policy", c.policy},
          {"timer", c.timer},
          {"screens", c.screens},
          {"created", c.created},
          {"target_rate", c.target_rate},
          {"rows", c.rows},
          {"in_sample_rate", c.in_sample_rate},
          {"uncalibrated_rate", c.uncalibrated_rate},
          {"row_safety", DriftCalibration::kRowSafety},
          {"classes", classes},
          {"row_needs", c.row_needs}};
}

DriftCalibration drift_calibration_from_json(const json& j) {
  if (j.value("kind", "") != "caliber A/A drift calibration") {
    throw_usage("not a caliber drift calibration (no \"kind\": \"caliber A/A drift calibration\")");
  }
  DriftCalibration c;
  c.device_model = j.value("device_model", "");
  c.policy = j.value("policy", "");
  c.timer = j.value("timer", "");
  c.screens = j.value("screens", std::vector<std::string>{});
  c.created = j.value("created", "");
  c.target_rate = j.value("target_rate", 0.005);
  c.rows = j.value("rows", size_t{0});
  c.in_sample_rate = j.value("in_sample_rate", 0.0);
  c.uncalibrated_rate = j.value("uncalibrated_rate", 0.0);
  for (const auto& k : j.at("classes")) {
    c.classes.push_back({k.at("timer").get<std::string>(), k.at("decade").get<int>(),
                         k.value("rows", size_t{0}), k.at("band").get<double>()});
  }
  c.row_needs = j.value("row_needs", std::map<std::string, double>{});
  return c;
}

DriftCalibration read_drift_calibration(const std::string& path) {
  try {
    return drift_calibration_from_json(json::parse(read_file(path)));
  } catch (const json::exception& e) {
    throw_usage("--calibration: {} is not a drift calibration ({})", path, e.what());
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kUsage) throw;
    throw_usage("--calibration: {}: {}", path, e.what());
  }
}

std::optional<std::string> shipped_calibration_for(const std::string& device_model) {
  if (device_model.empty()) return std::nullopt;
  std::string name = to_lower(device_model);
  std::replace(name.begin(), name.end(), ' ', '-');
  std::filesystem::path path = data_dir() / "calibration" / (name + ".json");
  if (!std::filesystem::is_regular_file(path)) return std::nullopt;
  return path.string();
}

}  // namespace caliber
