#pragma once

#include <cstddef>
#include <filesystem>
#include <map>

#include "core/knobs.h"
#include "report/compare.h"

namespace caliber {

// The flags a run was made with, read back from its identity's command line ("caliber run
// --flag value ..."): what a confirmation pass re-runs it with. A usage error when the line
// cannot be read back (a value with spaces, an unknown flag).
FlagValues flags_of_command_line(const std::string& command_line);

// `caliber compare --confirm`: re-measures every FAST and SLOW row of `comparison` in this
// process, `rounds` times, each round running A's flags and B's flags for that one case back to
// back (B first in every other round). Re-runs go under `dir`/confirm/. Refused (usage error,
// before any device work) when A and B were measured by different harness or torch versions,
// which one process cannot reproduce, or when a run recorded no command line.
std::map<size_t, Confirmation> run_confirmation(const Comparison& comparison,
                                                const RunCollection& a, const RunCollection& b,
                                                int rounds, const std::filesystem::path& dir,
                                                const EnvLookup& env);

}  // namespace caliber
