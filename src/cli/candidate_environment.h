#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/knobs.h"

namespace caliber {

// What a candidate library reads from the process environment at import, decided from the knobs
// and the backend before anything is imported, and recorded in the run identity.
struct CandidateEnvironment {
  // USE_FLAGTUNE as handed over: "0", "1", or "unset" when no knob set it (FlagGems routes an
  // adapted operator to its cost model when it is unset, to the default configs with 0).
  std::string use_flagtune = "unset";
  // GEMS_VENDOR (or FlagGems' other vendor names) as the candidate sees it; empty: none.
  std::string gems_vendor;
  std::string gems_vendor_source;  // the variable the user set, or "backend <name>"
  std::vector<std::pair<std::string, std::string>> exports;  // set before the import
  std::map<std::string, std::string> caches;  // a python: candidate's (candidate_caches.h)
};

// USE_FLAGTUNE from --flagtune or USE_FLAGTUNE; GEMS_VENDOR from the backend for a python:
// candidate, unless the user set one of FlagGems' vendor variables; a python: candidate's caches
// as they are before its import.
CandidateEnvironment plan_candidate_environment(const Knobs& knobs, const std::string& backend,
                                                const EnvLookup& env);

// Sets `exports` in this process's environment, which an embedded interpreter and its imports
// read.
void export_candidate_environment(const CandidateEnvironment& environment);

}  // namespace caliber
