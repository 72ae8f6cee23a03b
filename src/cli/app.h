#pragma once

namespace caliber {

// Parses the command line, dispatches to a subcommand, and turns errors into exit codes
// (the only place that does).
int run_cli(int argc, char** argv);

}  // namespace caliber
