#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "core/knobs.h"

namespace caliber {

// What the chosen subcommand does once parsing succeeded; returns the exit code.
using CommandAction = std::function<int()>;

// Adds the named knobs of core/knobs.h as options of `command`, collecting what the user typed
// into `flags` (validation happens later, in resolve_knobs, so flags and environment names get
// the same checks and messages).
void add_knob_options(CLI::App* command, FlagValues& flags, const std::vector<std::string>& names);

// One function per subcommand file; each adds its subcommand and sets `action` when chosen.
void add_devices_command(CLI::App& app, CommandAction& action);
void add_run_command(CLI::App& app, CommandAction& action);
void add_ops_command(CLI::App& app, CommandAction& action);
void add_summary_command(CLI::App& app, CommandAction& action);
void add_compare_command(CLI::App& app, CommandAction& action);
void add_calibrate_command(CLI::App& app, CommandAction& action);
void add_report_command(CLI::App& app, CommandAction& action);
void add_batch_command(CLI::App& app, CommandAction& action);
void add_worker_command(CLI::App& app, CommandAction& action);

}  // namespace caliber
