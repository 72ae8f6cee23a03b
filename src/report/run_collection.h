#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ops_status.h"
#include "core/result_row.h"
#include "core/run_identity.h"

namespace caliber {

// One run directory as read back: its identity (absent for a bare run.log) and where its rows
// came from.
struct RunSource {
  std::string path;
  std::optional<RunIdentity> identity;
  std::string rows_file;  // "results.jsonl", "run.log" or "" when the directory has neither
};

struct CollectedRow {
  ResultRow row;
  size_t source = 0;  // index into RunCollection::sources
};

// Everything summary, compare and report read from one run or batch directory.
struct RunCollection {
  std::string root;
  std::vector<RunSource> sources;
  std::vector<CollectedRow> rows;
  std::vector<OpStatus> op_statuses;  // a batch's ops_status.csv; empty for a single run

  // The identity of the run directory that measured `op`; nullptr when none recorded one.
  const RunIdentity* identity_for_op(const std::string& op) const;
  // The first identity recorded anywhere (a batch shares its number-changing fields).
  const RunIdentity* any_identity() const;
};

// Reads a run directory (results.jsonl, else run.log in FlagGems' wording) or a batch directory
// (ops/<op>/ run directories, an op's dtype reruns in its stead, plus ops_status.csv). Anything
// else is a usage error.
RunCollection load_run_collection(const std::string& path);

// How a row's shape is shown and matched: the Size Detail when there is one, else the shapes.
std::string shape_label(const ResultRow& row);

}  // namespace caliber
