#include "report/compare_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/csv.h"
#include "report/number_format.h"
#include "report/text_table.h"

namespace caliber {

namespace {

std::optional<double> median_of(const std::optional<ResultRow>& row) {
  if (!row || row->status != RowStatus::kSuccess) return std::nullopt;
  return headline_ms(*row);
}

std::string samples_of(const std::optional<ResultRow>& row) {
  return row ? std::to_string(row->samples_ms.size()) : "";
}

std::string confirm_speedups(const Confirmation& confirmation) {
  std::vector<std::string> parts;
  for (double s : confirmation.speedups) parts.push_back(fmt::format("{:.4f}", s));
  return fmt::format("{}", fmt::join(parts, ";"));
}

struct ConfirmCounts {
  size_t rows = 0;
  std::map<std::string, size_t> after;  // verdict after the pass -> rows
  size_t kept = 0;                      // the screens' FAST/SLOW stood
};

ConfirmCounts confirm_counts(const Comparison& c) {
  ConfirmCounts out;
  for (const auto& r : c.rows) {
    if (!r.confirmation) continue;
    ++out.rows;
    ++out.after[verdict_name(r.stats.verdict)];
    if (r.stats.verdict == r.confirmation->before) ++out.kept;
  }
  return out;
}

// confirm_needed is left 0 by a caller that applied confirmations without counting the rows.
size_t rows_needed(const Comparison& c, const ConfirmCounts& counts) {
  return std::max(c.confirm_needed, counts.rows);
}

nlohmann::json confirmation_json(const Comparison& c) {
  if (c.confirm_rounds == 0) return {{"ran", false}};
  ConfirmCounts counts = confirm_counts(c);
  return {
      {"ran", true},
      {"rounds", c.confirm_rounds},
      {"rows", counts.rows},
      {"rows_needed", rows_needed(c, counts)},
      {"complete", c.confirm_stopped.empty()},
      {"stopped", c.confirm_stopped.empty() ? nlohmann::json() : nlohmann::json(c.confirm_stopped)},
      {"kept", counts.kept},
      {"after", counts.after}};
}

std::string confirmation_text(const Comparison& c) {
  if (c.confirm_rounds == 0) {
    return "not confirmed: FAST and SLOW come from the screens' samples alone (compare --confirm "
           "re-measures them, A and B in one process)\n";
  }
  ConfirmCounts counts = confirm_counts(c);
  std::vector<std::string> after;
  for (const auto& [verdict, n] : counts.after) after.push_back(fmt::format("{} {}", n, verdict));
  std::string text = fmt::format(
      "confirmation pass: {} FAST, SLOW and UNSURE rows re-measured in {} rounds of A and B in one "
      "process; "
      "now {}\n",
      counts.rows, c.confirm_rounds,
      after.empty() ? "none" : fmt::format("{}", fmt::join(after, ", ")));
  if (!c.confirm_stopped.empty()) {
    const size_t needed = rows_needed(c, counts);
    text += fmt::format(
        "confirmation pass stopped ({}) after {} of {} rows: the other {} keep their screens' "
        "verdicts, not confirmed; the same command goes on from the journal "
        "(confirm/confirmations.jsonl)\n",
        c.confirm_stopped, counts.rows, needed, needed - counts.rows);
  }
  return text;
}

std::string allowed_fields(const Comparison& c) {
  std::vector<std::string> fields;
  for (const auto& m : c.allowed_mismatches) fields.push_back(m.field);
  return fmt::format("{}", fmt::join(fields, ";"));
}

std::optional<double> if_compared(const RowComparison& r, double value) {
  if (r.pairing != Pairing::kCompared || !(value > 0)) return std::nullopt;
  return value;
}

bool has_interval(const RowComparison& r) {
  return r.pairing == Pairing::kCompared && r.stats.ci_high > 0;
}

TextTable::Tint tint_of(const RowComparison& r) {
  if (r.regressed()) return TextTable::Tint::kRed;
  if (r.pairing != Pairing::kCompared) return TextTable::Tint::kYellow;
  switch (r.stats.verdict) {
    case Verdict::kFast:
      return TextTable::Tint::kGreen;
    case Verdict::kSlow:
      return TextTable::Tint::kRed;
    case Verdict::kUnsure:
      return TextTable::Tint::kYellow;
    case Verdict::kSame:
      break;
  }
  return TextTable::Tint::kNone;
}

}  // namespace

const std::vector<std::string>& compare_columns() {
  static const std::vector<std::string> columns = {"op",
                                                   "family",
                                                   "dtype",
                                                   "shape",
                                                   "provider",
                                                   "occurrence",
                                                   "verdict",
                                                   "speedup",
                                                   "ci_low",
                                                   "ci_high",
                                                   "band",
                                                   "a_median_ms",
                                                   "b_median_ms",
                                                   "a_samples",
                                                   "b_samples",
                                                   "a_noise",
                                                   "b_noise",
                                                   "a_status",
                                                   "b_status",
                                                   "a_timer_used",
                                                   "b_timer_used",
                                                   "reason",
                                                   "allowed_mismatch",
                                                   "verdict_before_confirm",
                                                   "confirm_speedups"};
  return columns;
}

std::string compare_csv(const Comparison& c) {
  std::string text = csv_line(compare_columns());
  std::string allowed = allowed_fields(c);
  for (const auto& r : c.rows) {
    bool interval = has_interval(r);
    text += csv_line({r.op,
                      r.family,
                      r.dtype,
                      r.shape,
                      r.provider,
                      std::to_string(r.occurrence),
                      r.verdict(),
                      csv_number(if_compared(r, r.stats.speedup)),
                      interval ? csv_number(r.stats.ci_low) : "",
                      interval ? csv_number(r.stats.ci_high) : "",
                      interval ? csv_number(r.stats.band) : "",
                      csv_number(median_of(r.a)),
                      csv_number(median_of(r.b)),
                      samples_of(r.a),
                      samples_of(r.b),
                      interval ? csv_number(r.stats.noise_a) : "",
                      interval ? csv_number(r.stats.noise_b) : "",
                      r.a ? to_string(r.a->status) : "",
                      r.b ? to_string(r.b->status) : "",
                      r.a ? r.a->timer_used : "",
                      r.b ? r.b->timer_used : "",
                      r.stats.reason,
                      allowed,
                      r.confirmation ? verdict_name(r.confirmation->before) : "",
                      r.confirmation ? confirm_speedups(*r.confirmation) : ""});
  }
  return text;
}

nlohmann::json calibration_json(const Comparison& c) {
  const auto& cal = c.options.calibration;
  if (!cal) return {{"calibrated", false}};
  return {{"calibrated", true},
          {"source", c.options.calibration_source},
          {"device_model", cal->device_model},
          {"screens", cal->screens},
          {"created", cal->created},
          {"target_rate", cal->target_rate},
          {"in_sample_rate", cal->in_sample_rate},
          {"uncalibrated_rate", cal->uncalibrated_rate}};
}

std::string calibration_text(const Comparison& c) {
  const auto& cal = c.options.calibration;
  if (!cal) {
    std::string note = c.options.calibration_note.empty() ? "" : c.options.calibration_note + "; ";
    return note +
           "not calibrated: each row's band is the minimum effect alone, and the rate of false "
           "FAST/SLOW between two screens of one build is unknown (caliber calibrate A1 A2 -o "
           "FILE, then --calibration FILE)\n";
  }
  return fmt::format(
      "calibrated for an A/A false-verdict rate of {:.2f}% ({}: {} A/A row pairs of {} on {}, "
      "{}; {:.2f}% false at the class bands, {:.2f}% without them)\n",
      100 * cal->target_rate, c.options.calibration_source, cal->rows, cal->device_model,
      cal->screens.size() == 2 ? "2 screens" : fmt::format("{} screens", cal->screens.size()),
      cal->created, 100 * cal->in_sample_rate, 100 * cal->uncalibrated_rate);
}

std::string compare_json(const Comparison& c) {
  const VerdictOptions& v = c.options.verdict;
  nlohmann::json out = {{"a", c.a_root},
                        {"b", c.b_root},
                        {"speedup", "median(A) / median(B): above 1, B is faster"},
                        {"thresholds",
                         {{"min_effect", v.min_effect},
                          {"max_noise", v.max_noise},
                          {"confidence", v.confidence},
                          {"resamples", v.resamples},
                          {"min_samples", v.min_samples}}},
                        {"allowed_mismatches", nlohmann::json::array()},
                        {"calibration", calibration_json(c)},
                        {"confirmation", confirmation_json(c)},
                        {"verdicts", c.verdict_counts},
                        {"verdicts_by_timer", c.verdicts_by_timer},
                        {"regressed", c.regressed()},
                        {"geomeans", nlohmann::json::array()}};
  for (const auto& m : c.allowed_mismatches) {
    out["allowed_mismatches"].push_back({{"field", m.field}, {"detail", m.detail}});
  }
  for (const auto& g : c.geomeans) {
    out["geomeans"].push_back({{"family", g.family},
                               {"provider", g.provider},
                               {"rows", g.rows},
                               {"speedup", g.speedup ? nlohmann::json(*g.speedup) : nullptr}});
  }
  return out.dump(2) + "\n";
}

std::string compare_text(const Comparison& c, bool color) {
  std::string out = fmt::format("A: {}\nB: {}\n", c.a_root, c.b_root);
  for (const auto& m : c.allowed_mismatches) {
    out += fmt::format("caliber mismatch allowed by --allow-mismatch: {}\n", m.detail);
  }
  TextTable rows({"verdict", "op", "dtype", "provider", "shape", "A ms", "B ms", "speedup",
                  "interval", "noise A/B", "note"});
  for (const auto& r : c.rows) {
    bool interval = has_interval(r);
    rows.add_row(
        {r.verdict(), r.op, r.dtype, r.provider, r.shape, human_number(median_of(r.a)),
         human_number(median_of(r.b)), human_number(if_compared(r, r.stats.speedup)),
         interval ? fmt::format("{:.3f}-{:.3f}", r.stats.ci_low, r.stats.ci_high) : "",
         interval ? fmt::format("{:.1f}%/{:.1f}%", 100 * r.stats.noise_a, 100 * r.stats.noise_b)
                  : "",
         r.stats.reason},
        tint_of(r));
  }
  out += rows.render(color, 48);

  TextTable means({"provider", "family", "rows", "geomean speedup"});
  for (const auto& g : c.geomeans) {
    means.add_row({g.provider, g.family, std::to_string(g.rows), human_number(g.speedup)});
  }
  out += "\n" + means.render(color);
  std::vector<std::string> counts;
  for (const auto& [verdict, n] : c.verdict_counts)
    counts.push_back(fmt::format("{} {}", n, verdict));
  const VerdictOptions& v = c.options.verdict;
  out += fmt::format(
      "\n{} rows: {}\nspeedup = median(A)/median(B); {:.0f}% bootstrap interval of it; minimum "
      "effect {:.1f}%, noise limit {:.1f}%\n",
      c.rows.size(), fmt::join(counts, ", "), 100 * v.confidence, 100 * v.min_effect,
      100 * v.max_noise);
  std::vector<std::string> shares;
  for (const auto& [timer, verdicts] : c.verdicts_by_timer) {
    size_t judged = 0;
    for (const auto& [verdict, n] : verdicts) judged += n;
    auto same = verdicts.find("SAME");
    const size_t n_same = same == verdicts.end() ? 0 : same->second;
    shares.push_back(fmt::format("{} {} rows, {:.1f}% SAME", timer.empty() ? "?" : timer, judged,
                                 judged ? 100.0 * static_cast<double>(n_same) / judged : 0.0));
  }
  if (!shares.empty()) out += fmt::format("by timer used: {}\n", fmt::join(shares, "; "));
  out += calibration_text(c);
  out += confirmation_text(c);
  return out;
}

}  // namespace caliber
