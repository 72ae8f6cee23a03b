#include "cli/app.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "core/error.h"
#include "core/version.h"

namespace caliber {

int run_cli(int argc, char** argv) {
  CLI::App app{"caliber: operator benchmarks that carry their caliber"};
  app.set_version_flag("--version", std::string(harness_version()));
  app.require_subcommand(1);
  CommandAction action;
  add_devices_command(app, action);
  add_ops_command(app, action);
  add_summary_command(app, action);
  add_compare_command(app, action);
  add_report_command(app, action);
  add_batch_command(app, action);
  add_worker_command(app, action);
  try {
    app.parse(argc, argv);
    return action ? action() : 0;
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const Error& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    return exit_code_for(e.kind());
  } catch (const std::exception& e) {
    fmt::print(stderr, "caliber: internal error: {}\n", e.what());
    return exit_code_for(ErrorKind::kInternal);
  }
}

}  // namespace caliber
