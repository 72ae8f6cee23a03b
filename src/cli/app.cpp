#include "cli/app.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "core/version.h"

namespace caliber {

int run_cli(int argc, char** argv) {
  CLI::App app{"caliber: operator benchmarks with their caliber"};
  app.set_version_flag("--version", std::string(harness_version()));
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const Error& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    return exit_code_for(e.kind());
  }
  return 0;
}

}  // namespace caliber
