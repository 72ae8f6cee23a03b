#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "report/verdict.h"

namespace caliber {

struct Comparison;
struct RowComparison;

// What `caliber compare --confirm` found for one FAST, SLOW or UNSURE row: the row re-measured with
// A's and with B's recorded flags in one process, A and B back to back, round after round. Drift
// that moves a whole screen (another process, its allocations, the clock state it met) hits both
// sides of a round alike, so it cancels in the round's speedup.
struct Confirmation {
  Verdict before = Verdict::kUnsure;  // the verdict from the screens' samples
  std::vector<double> speedups;       // per completed round: median(A) / median(B)
  int rounds_asked = 0;
  std::string note;  // why a round is missing (a re-run that failed or lost the row)
};

// Fewer completed rounds than this leave the row UNSURE.
constexpr int kMinConfirmRounds = 2;

// The verdict after the rounds, judged on the median of the rounds' speedups against the row's
// band: SAME when it lies within the band; a FAST or SLOW from the screens stands when the median
// lies beyond the band the same way. Where the screens said UNSURE, or the other way, the row
// becomes FAST or SLOW only when every round lies beyond the band that way, else UNSURE. UNSURE
// when too few rounds completed.
Verdict confirmed_verdict(const Confirmation& confirmation, double band);

// The rows a confirmation pass re-measures: every judged row the screens' samples did not call
// SAME (FAST, SLOW and UNSURE).
bool needs_confirmation(const RowComparison& row);

// Those rows in the order a pass takes them: FAST and SLOW first, since they are what a gate fails
// on and what a pass cut by its deadline should have spent its time on, then UNSURE; each group in
// the comparison's order.
std::vector<size_t> confirmation_order(const Comparison& comparison);

// Sets each confirmed row's verdict (keyed by its index in comparison.rows) and recounts the
// comparison's verdicts.
void apply_confirmations(Comparison& comparison, int rounds,
                         const std::map<size_t, Confirmation>& confirmations);

}  // namespace caliber
