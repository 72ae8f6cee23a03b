#pragma once

#include <string>
#include <vector>

namespace caliber {

// `caliber ops --inventory DIR`: FlagGems' benchmark marks, each covered by a corpus op (its
// name or an alias), dismissed (ops/dismiss.yaml, op-wide entries) or missing. Exit 0.
int print_inventory(const std::string& dir, const std::string& dismiss_file, bool as_json);

// `caliber ops --fidelity LOG...`: FlagGems' printed Size Detail against caliber's inputs for
// the same op, dtype and level. Exit 0 (the figures are the result, not a gate).
int print_fidelity(const std::vector<std::string>& logs, bool as_json);

}  // namespace caliber
