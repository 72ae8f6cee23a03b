#pragma once

#include <map>
#include <string>

#include "core/knobs.h"

namespace caliber {

// The on-disk caches a python: candidate such as FlagGems reads, and what they held when the run
// began, for the run identity. FlagGems keeps its autotuner's winners in SQLite
// (`flaggems_tuned_configs`): an op whose winners are there is not tuned again, so its kernels
// run with configs an earlier process chose, under that process's conditions, and a screen on a
// fresh machine tunes everything itself. Triton's compiled kernels (`triton_kernels`) change only
// what the first call costs, which no sample holds. Neither is number-changing: two screens of
// one build, the first filling the caches, must stay comparable; the field says which was which.
// Values: "PATH: absent", "PATH: empty", "PATH: N database(s), B bytes", "PATH: N entries" (the
// kernel cache's folders); a FLAGGEMS_DB_URL that is not a sqlite file is named by its scheme
// alone (it may hold a password).
std::map<std::string, std::string> candidate_caches(const EnvLookup& env);

}  // namespace caliber
