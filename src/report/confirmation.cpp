#include "report/confirmation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/stats.h"
#include "report/compare.h"

namespace caliber {

Verdict confirmed_verdict(const Confirmation& confirmation, double band) {
  const auto& speedups = confirmation.speedups;
  if (static_cast<int>(speedups.size()) < kMinConfirmRounds) return Verdict::kUnsure;
  const double limit = std::log1p(std::max(band, 0.0));
  const double effect = std::log(median(speedups));
  if (std::abs(effect) <= limit) return Verdict::kSame;
  const Verdict direction = effect > 0 ? Verdict::kFast : Verdict::kSlow;
  if (direction == confirmation.before) return direction;
  // Screens that said nothing, or said the other way, leave the rounds alone to say it: every
  // one of them. The other way is the screens' process-to-process drift that the pass exists to
  // remove: rows of B made 5% slower read 3-6% faster than A between screens, and 0.95 in each of
  // A's and B's rounds in one process (docs/results.md, sixteenth session).
  const bool every_round = std::all_of(speedups.begin(), speedups.end(), [&](double s) {
    return s > 0 && std::abs(std::log(s)) > limit && (std::log(s) > 0) == (effect > 0);
  });
  return every_round ? direction : Verdict::kUnsure;
}

bool needs_confirmation(const RowComparison& row) {
  return row.pairing == Pairing::kCompared && row.stats.verdict != Verdict::kSame;
}

std::vector<size_t> confirmation_order(const Comparison& comparison) {
  std::vector<size_t> decided, unsure;
  for (size_t i = 0; i < comparison.rows.size(); ++i) {
    const RowComparison& row = comparison.rows[i];
    if (!needs_confirmation(row)) continue;
    (row.stats.verdict == Verdict::kUnsure ? unsure : decided).push_back(i);
  }
  decided.insert(decided.end(), unsure.begin(), unsure.end());
  return decided;
}

void apply_confirmations(Comparison& comparison, int rounds,
                         const std::map<size_t, Confirmation>& confirmations) {
  comparison.confirm_rounds = rounds;
  for (const auto& [index, confirmation] : confirmations) {
    RowComparison& row = comparison.rows.at(index);
    row.confirmation = confirmation;
    row.confirmation->before = row.stats.verdict;
    const Verdict after = confirmed_verdict(*row.confirmation, row.stats.band);
    const size_t done = row.confirmation->speedups.size();
    if (done < static_cast<size_t>(kMinConfirmRounds)) {
      row.stats.reason = fmt::format("{} of {} confirmation rounds completed{}", done, rounds,
                                     confirmation.note.empty() ? "" : ": " + confirmation.note);
    } else {
      row.stats.reason = fmt::format(
          "{} from the screens; {} rounds of A and B in one process: "
          "median speedup {:.4f}",
          verdict_name(row.stats.verdict), done, median(row.confirmation->speedups));
    }
    row.stats.verdict = after;
  }
  count_verdicts(comparison);
}

}  // namespace caliber
