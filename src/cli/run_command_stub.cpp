// STUB, batch branch only: stands in for the lead's `execute_run` (src/cli/run_command.h) so that
// `caliber worker` links before `caliber run` is merged. Delete this file when merging run.
#include "cli/run_command.h"
#include "core/error.h"

namespace caliber {

int execute_run(const FlagValues&, const EnvLookup&) {
  throw Error(ErrorKind::kInternal, "execute_run is a stub in this build (caliber run not merged)");
}

}  // namespace caliber
