#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result_row.h"
#include "report/caliber_gate.h"
#include "report/confirmation.h"
#include "report/drift_calibration.h"
#include "report/run_collection.h"
#include "report/verdict.h"

namespace caliber {

struct CompareOptions {
  VerdictOptions verdict;
  std::vector<std::string> allow_mismatch;  // gate fields compared despite differing
  // The A/A calibration that widens each row's band to the drift of its class and row
  // (report/drift_calibration.h): empty for the shipped one of A's device model when there is
  // one, "none" for none, else a file. compare_runs resolves it into `calibration`.
  std::string calibration_choice;
  std::optional<DriftCalibration> calibration;
  std::string calibration_source;  // the file, and whether it was given or shipped
  std::string calibration_note;    // why a shipped calibration was not used
};

// How a row of A found its partner in B (rows pair by op, dtype, provider, shape, and the order
// of repeated shapes).
enum class Pairing {
  kCompared,  // both succeeded: the samples decide
  kFailed,    // paired, but at least one side did not succeed
  kOnlyA,
  kOnlyB,
};

struct RowComparison {
  std::string op;
  std::string family;
  std::string dtype;
  std::string provider;
  std::string shape;
  int occurrence = 0;  // 0 for the first row with this key, 1 for its repeat, ...
  Pairing pairing = Pairing::kCompared;
  std::optional<ResultRow> a;
  std::optional<ResultRow> b;
  SampleComparison stats;
  // Set by a confirmation pass (compare --confirm); `stats.verdict` is then the confirmed one.
  std::optional<Confirmation> confirmation;

  // FAST, SLOW, SAME, UNSURE for compared rows; ONLY_A, ONLY_B for unpaired ones; for a pair
  // with a side that did not succeed, that side's status (B's first): FAILED, NOT_COVERED, ...
  std::string verdict() const;
  // A row that worked in A and got slower or broke in B: what --fail-on-slow fails on.
  bool regressed() const;
};

struct FamilyGeomean {
  std::string family;  // "(all)" for the provider's overall mean
  std::string provider;
  size_t rows = 0;
  std::optional<double> speedup;  // geometric mean of median(A)/median(B) over compared rows
};

struct Comparison {
  std::string a_root;
  std::string b_root;
  CompareOptions options;
  std::vector<FieldMismatch> allowed_mismatches;  // recorded so no reader misses them
  std::vector<RowComparison> rows;                // slowest first, unpaired last
  std::vector<FamilyGeomean> geomeans;
  std::map<std::string, size_t> verdict_counts;
  // The judged rows (SAME, FAST, SLOW, UNSURE) per timer used: a screen's direct-timed rows carry
  // the host launch path and agree far less often than its graph-timed ones.
  std::map<std::string, std::map<std::string, size_t>> verdicts_by_timer;
  int confirm_rounds = 0;     // rounds of the confirmation pass; 0 when none ran
  size_t confirm_needed = 0;  // rows the pass had to re-measure (FAST, SLOW, UNSURE)
  // Why the pass stopped before its last row ("deadline", "interrupted"); empty when it ended.
  std::string confirm_stopped;

  bool regressed() const;
};

// (Re)counts verdict_counts and verdicts_by_timer from the rows.
void count_verdicts(Comparison& comparison);

// Gate first (throws a usage error on a refused mismatch), then the row verdicts.
Comparison compare_runs(const RunCollection& a, const RunCollection& b,
                        const CompareOptions& options);

}  // namespace caliber
