#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "batch/op_catalog.h"

namespace caliber {

// An op that is known not to work on some device, with the reason (ops/dismiss.yaml).
struct DismissEntry {
  std::string op;
  std::string reason;
  std::string verified_on;
};

// Reads a dismiss list: a YAML sequence of {op, reason, verified_on} maps, or a map with one
// such sequence under "dismiss" or "ops". An entry without a reason is rejected.
std::vector<DismissEntry> load_dismiss_list(const std::filesystem::path& path);

// Op names from a file: one or more per line (comma-separated), '#' starts a comment.
std::vector<std::string> read_ops_file(const std::filesystem::path& path);

struct SelectionRequest {
  std::vector<std::string> ops;       // empty: every op of the catalog
  std::vector<std::string> families;  // empty: every family; compared case-insensitively
};

struct Selection {
  std::vector<OpEntry> ops;  // to run, in catalog order (or the order named when no catalog)
  std::vector<std::pair<OpEntry, DismissEntry>> dismissed;
};

// `catalog` may be empty when `caliber ops` was not available; named ops then run with what
// little is known about them. A named op missing from a non-empty catalog is a usage error.
Selection select_ops(const std::vector<OpEntry>& catalog, const SelectionRequest& request,
                     const std::vector<DismissEntry>& dismiss);

}  // namespace caliber
