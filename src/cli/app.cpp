#include "cli/app.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "cli/fatal_signal_report.h"
#include "core/error.h"
#include "core/version.h"
#include "core/write_failure.h"
#include "engine/device/generic/torch_device_enumerator.h"
#include "engine/provider/embedded_python.h"

namespace caliber {

int run_cli(int argc, char** argv) {
  install_fatal_signal_report();
  install_torch_device_enumerator();
  CLI::App app{"caliber: operator benchmarks that carry their caliber"};
  app.set_version_flag("--version", std::string(harness_version()));
  app.require_subcommand(1);
  CommandAction action;
  add_devices_command(app, action);
  add_run_command(app, action);
  add_ops_command(app, action);
  add_summary_command(app, action);
  add_compare_command(app, action);
  add_calibrate_command(app, action);
  add_report_command(app, action);
  add_batch_command(app, action);
  add_worker_command(app, action);
  try {
    app.parse(argc, argv);
    int rc = action ? action() : 0;
    // Finalize the embedded interpreter (if a python: candidate started one) at a safe point,
    // before static destructors of the libraries it loaded run.
    shutdown_embedded_python();
    return rc;
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const WriteFailure& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    return kWriteFailureExitCode;
  } catch (const Error& e) {
    fmt::print(stderr, "caliber: {}\n", e.what());
    return exit_code_for(e.kind());
  } catch (const std::exception& e) {
    fmt::print(stderr, "caliber: internal error: {}\n", e.what());
    return exit_code_for(ErrorKind::kInternal);
  }
}

}  // namespace caliber
