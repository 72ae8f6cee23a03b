#pragma once

#include <string>
#include <vector>

#include "report/run_collection.h"

namespace caliber {

// One number-changing field on which A and B disagree, with the values that show it.
struct FieldMismatch {
  std::string field;
  std::string detail;  // timer: A "graph", B "direct" (op mm)
};

// The caliber gate: two runs are compared only when their identities agree on every field that
// changes a number (core's number_changing_fields()), op by op for batches. A missing
// run_identity.json (a bare FlagGems log) counts as a mismatch of the field "run_identity".
std::vector<FieldMismatch> caliber_mismatches(const RunCollection& a, const RunCollection& b);

// The fields --allow-mismatch accepts: number_changing_fields() and "run_identity".
std::vector<std::string> gate_fields();

// Throws a usage error (exit 2) listing every mismatch not in `allowed`; validates `allowed`
// against gate_fields(). Returns the mismatches that were allowed, for the output to record.
std::vector<FieldMismatch> enforce_caliber_gate(const RunCollection& a, const RunCollection& b,
                                                const std::vector<std::string>& allowed);

}  // namespace caliber
