#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "batch/op_catalog.h"
#include "core/op_list.h"

namespace caliber {

// Op names from a file: one or more per line (comma-separated), '#' starts a comment.
std::vector<std::string> read_ops_file(const std::filesystem::path& path);

struct SelectionRequest {
  std::vector<std::string> ops;       // empty: every op of the catalog
  std::vector<std::string> families;  // empty: every family; compared case-insensitively
};

struct Selection {
  std::vector<OpEntry> ops;  // to run, in catalog order (or the order named when no catalog)
  std::vector<std::pair<OpEntry, OpListEntry>> dismissed;
};

// `catalog` may be empty when `caliber ops` was not available; named ops then run with what
// little is known about them. A named op missing from a non-empty catalog is a usage error.
// An op is set aside when `dismiss` has an entry for it on `backend` that covers every dtype,
// the entry that makes `caliber run` note the op as dismissed (OpList::dismissal).
Selection select_ops(const std::vector<OpEntry>& catalog, const SelectionRequest& request,
                     const OpList& dismiss, const std::string& backend);

}  // namespace caliber
