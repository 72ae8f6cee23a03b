#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/knobs.h"

namespace caliber {

// FlagGems' benchmark flags (benchmark/conftest.py) on `caliber run` and `caliber batch`, for its
// users' commands and scripts. A flag with a caliber meaning sets caliber's knob (and says which
// in --help): --mode, --fg_mode, --warmup, --iter, --metrics, --shape_file; --level, --dtypes and
// --record are caliber's own names. One with no caliber meaning (--query, --parallel, --output,
// --collect-marks, --mode wrapper) is a usage error naming it. Call after add_knob_options: the
// aliases refuse a value for a knob that its caliber flag already set.
void add_flaggems_flags(CLI::App* command, FlagValues& flags);

// The FlagGems note for a knob's --help ("also FlagGems' --level"); empty when none.
std::string flaggems_help_note(const std::string& knob);

}  // namespace caliber
