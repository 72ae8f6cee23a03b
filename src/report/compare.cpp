#include "report/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "report/geomean.h"

namespace caliber {

namespace {

std::string pairing_key(const ResultRow& row) {
  return fmt::format("{}\x1f{}\x1f{}\x1f{}", row.op, row.dtype, row.provider, shape_label(row));
}

// Rows keyed with the order of repeats (FlagGems' mm list holds 4096^3 twice).
std::map<std::pair<std::string, int>, const ResultRow*> keyed_rows(const RunCollection& run) {
  std::map<std::pair<std::string, int>, const ResultRow*> out;
  std::map<std::string, int> seen;
  for (const auto& c : run.rows) {
    std::string key = pairing_key(c.row);
    out[{key, seen[key]++}] = &c.row;
  }
  return out;
}

bool no_device_work(const ResultRow& row) { return has_marker(row, kNoDeviceWorkMarker); }

SampleComparison judge(const ResultRow& a, const ResultRow& b, const CompareOptions& options,
                       const std::string& key, int occurrence) {
  const auto& sa = a.samples_ms;
  const auto& sb = b.samples_ms;
  if (sa.empty() || sb.empty()) {
    SampleComparison out;
    if (headline_ms(a) > 0 && headline_ms(b) > 0) out.speedup = headline_ms(a) / headline_ms(b);
    out.reason = fmt::format("no samples in {} (medians only, as from a run.log)",
                             sa.empty() && sb.empty() ? "A and B" : (sa.empty() ? "A" : "B"));
    return out;
  }
  VerdictOptions verdict = options.verdict;
  if (options.calibration) {
    verdict.min_effect = std::max(
        verdict.min_effect,
        options.calibration->band_for(row_key(a, occurrence), a.timer_used, headline_ms(a)));
  }
  SampleComparison out = compare_samples(sa, sb, verdict, seed_for(key));
  // A per-shape fallback (graph -> direct) changes what a sample is; the gate only sees the
  // requested timer, so the row checks what was used.
  bool timer_allowed = std::find(options.allow_mismatch.begin(), options.allow_mismatch.end(),
                                 "timer") != options.allow_mismatch.end();
  if (a.timer_used != b.timer_used && !timer_allowed) {
    out.verdict = Verdict::kUnsure;
    out.reason = fmt::format("timer used differs (A {}, B {})", a.timer_used, b.timer_used);
  } else if (no_device_work(a) && no_device_work(b)) {
    // What is left of a replay per call is the replay's own start over the calls: noise of no
    // device work, which both sides do alike.
    out.verdict = Verdict::kSame;
    out.reason = "no device work on either side";
  }
  return out;
}

double effect_order(const RowComparison& row) {
  switch (row.pairing) {
    case Pairing::kCompared:
      return row.stats.speedup > 0 ? std::log(row.stats.speedup) : 0.0;
    case Pairing::kFailed:
      return 1e9;
    case Pairing::kOnlyA:
      return 2e9;
    case Pairing::kOnlyB:
      return 3e9;
  }
  return 0;
}

std::vector<FamilyGeomean> family_geomeans(const std::vector<RowComparison>& rows) {
  std::map<std::pair<std::string, std::string>, std::vector<double>> groups;
  for (const auto& r : rows) {
    if (r.pairing != Pairing::kCompared || !(r.stats.speedup > 0)) continue;
    if (r.a && r.b && no_device_work(*r.a) && no_device_work(*r.b)) continue;
    groups[{r.provider, r.family.empty() ? "(unknown)" : r.family}].push_back(r.stats.speedup);
    groups[{r.provider, "(all)"}].push_back(r.stats.speedup);
  }
  std::vector<FamilyGeomean> out;
  for (const auto& [key, speedups] : groups) {
    out.push_back({key.second, key.first, speedups.size(), geometric_mean(speedups)});
  }
  // Each provider's overall line after its families.
  std::stable_sort(out.begin(), out.end(), [](const FamilyGeomean& x, const FamilyGeomean& y) {
    if (x.provider != y.provider) return x.provider < y.provider;
    return (x.family != "(all)") > (y.family != "(all)");
  });
  return out;
}

// A calibration describes the drift of one caliber on one device model: a run of another policy
// or timer drifts differently.
std::string calibration_mismatch(const DriftCalibration& cal, const RunIdentity& id) {
  if (!cal.device_model.empty() && cal.device_model != id.device_model) {
    return fmt::format("device model {} (the runs: {})", cal.device_model, id.device_model);
  }
  if (!cal.policy.empty() && cal.policy != id.policy) {
    return fmt::format("policy {} (the runs: {})", cal.policy, id.policy);
  }
  if (!cal.timer.empty() && cal.timer != id.timer) {
    return fmt::format("timer {} (the runs: {})", cal.timer, id.timer);
  }
  return "";
}

void resolve_calibration(CompareOptions& options, const RunCollection& a) {
  if (options.calibration || options.calibration_choice == "none") return;
  const RunIdentity* id = a.any_identity();
  if (!options.calibration_choice.empty()) {
    options.calibration = read_drift_calibration(options.calibration_choice);
    options.calibration_source = options.calibration_choice;
    if (id != nullptr) {
      if (std::string why = calibration_mismatch(*options.calibration, *id); !why.empty()) {
        throw_usage(
            "--calibration: {} was measured with {} (accepted: a calibration of the "
            "runs' device model, policy and timer, or none)",
            options.calibration_choice, why);
      }
    }
    return;
  }
  if (id == nullptr) return;
  std::optional<std::string> shipped = shipped_calibration_for(id->device_model);
  if (!shipped) return;
  DriftCalibration cal = read_drift_calibration(*shipped);
  if (std::string why = calibration_mismatch(cal, *id); !why.empty()) {
    options.calibration_note = fmt::format("{} not used: it was measured with {}", *shipped, why);
    return;
  }
  options.calibration = std::move(cal);
  options.calibration_source = "shipped " + *shipped;
}

}  // namespace

std::string RowComparison::verdict() const {
  switch (pairing) {
    case Pairing::kCompared:
      return verdict_name(stats.verdict);
    case Pairing::kFailed:
      return to_string(b->status != RowStatus::kSuccess ? b->status : a->status);
    case Pairing::kOnlyA:
      return "ONLY_A";
    case Pairing::kOnlyB:
      return "ONLY_B";
  }
  return "UNSURE";
}

bool RowComparison::regressed() const {
  if (pairing == Pairing::kCompared) return stats.verdict == Verdict::kSlow;
  return pairing == Pairing::kFailed && a && a->status == RowStatus::kSuccess;
}

bool Comparison::regressed() const {
  return std::any_of(rows.begin(), rows.end(),
                     [](const RowComparison& r) { return r.regressed(); });
}

void count_verdicts(Comparison& comparison) {
  comparison.verdict_counts.clear();
  comparison.verdicts_by_timer.clear();
  for (const auto& r : comparison.rows) {
    const std::string verdict = r.verdict();
    ++comparison.verdict_counts[verdict];
    if (r.pairing == Pairing::kCompared && r.a && r.b && r.a->status == RowStatus::kSuccess &&
        r.b->status == RowStatus::kSuccess) {
      ++comparison.verdicts_by_timer[r.a->timer_used][verdict];
    }
  }
}

Comparison compare_runs(const RunCollection& a, const RunCollection& b,
                        const CompareOptions& options) {
  Comparison out;
  out.a_root = a.root;
  out.b_root = b.root;
  out.options = options;
  out.allowed_mismatches = enforce_caliber_gate(a, b, options.allow_mismatch);
  resolve_calibration(out.options, a);

  auto rows_a = keyed_rows(a);
  auto rows_b = keyed_rows(b);
  auto add = [&](const std::pair<std::string, int>& key, const ResultRow* ra, const ResultRow* rb) {
    const ResultRow& any = ra ? *ra : *rb;
    RowComparison row;
    row.op = any.op;
    row.family = ra && !ra->family.empty() ? ra->family : any.family;
    if (row.family.empty() && rb) row.family = rb->family;
    row.dtype = any.dtype;
    row.provider = any.provider;
    row.shape = shape_label(any);
    row.occurrence = key.second;
    if (ra) row.a = *ra;
    if (rb) row.b = *rb;
    if (!ra) {
      row.pairing = Pairing::kOnlyB;
    } else if (!rb) {
      row.pairing = Pairing::kOnlyA;
    } else if (ra->status != RowStatus::kSuccess || rb->status != RowStatus::kSuccess) {
      row.pairing = Pairing::kFailed;
    } else {
      row.stats =
          judge(*ra, *rb, out.options, fmt::format("{}#{}", key.first, key.second), key.second);
    }
    out.rows.push_back(std::move(row));
  };
  for (const auto& [key, ra] : rows_a) {
    auto it = rows_b.find(key);
    add(key, ra, it == rows_b.end() ? nullptr : it->second);
  }
  for (const auto& [key, rb] : rows_b) {
    if (!rows_a.count(key)) add(key, nullptr, rb);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const RowComparison& x, const RowComparison& y) {
                     return effect_order(x) < effect_order(y);
                   });
  count_verdicts(out);
  out.geomeans = family_geomeans(out.rows);
  return out;
}

}  // namespace caliber
