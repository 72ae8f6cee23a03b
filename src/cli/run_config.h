#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "backend/failure_classifier.h"
#include "core/knobs.h"
#include "core/run_identity.h"
#include "core/shape_resolver.h"
#include "engine/run_session.h"
#include "timing/measure_options.h"

namespace caliber {

// The knobs become typed settings here, once, in the CLI: the timing core and the engine never
// see a Knobs.

// The knobs of `caliber run`, in the order its banner lists them.
const std::vector<std::string>& run_knob_names();

// One `caliber run`, configured: the engine's RunConfig plus what only the CLI's artifacts name
// (the knobs and where each came from, the dismiss and capture-deny entries, the candidate).
struct RunPlan {
  Knobs knobs;
  RunConfig config;
  bool capture_denied = false;
  std::string dismissed_reason;
  std::filesystem::path out;
  std::string candidate;  // provider spec; empty: the baseline only
};

// Resolves and checks everything before the first device call, so bad input costs nothing and
// leaves nothing behind: a usage error names the knob, the value and what is accepted.
RunPlan plan_run(const FlagValues& flags, const EnvLookup& env);

RunIdentity identity_of(const RunPlan& plan, const std::string& provider_version,
                        const std::string& command_line);
// The start banner of run.log and the terminal: the caliber knobs and where each came from.
std::string run_banner(const RunPlan& plan, const RunIdentity& identity);

MeasureOptions measure_options_from_knobs(const Knobs& knobs, std::string op,
                                          FailureClassifier classifier, bool capture_denied);

// The shape sources a run uses: level, SHAPE_MODE, --shape-file, and the backend whose override
// file (shapes/<backend>.yaml) applies.
ShapeSources shape_sources(const Knobs& knobs, const std::string& backend);

}  // namespace caliber
