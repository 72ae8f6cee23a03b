#pragma once

#include <string>

#include "backend/failure_classifier.h"
#include "core/knobs.h"
#include "core/shape_resolver.h"
#include "timing/measure_options.h"

namespace caliber {

// The knobs become typed settings here, once, in the CLI: the timing core and the engine never
// see a Knobs.

MeasureOptions measure_options_from_knobs(const Knobs& knobs, std::string op,
                                          FailureClassifier classifier, bool capture_denied);

// The shape sources a run uses: level, SHAPE_MODE, --shape-file, and the backend whose override
// file (shapes/<backend>.yaml) applies.
ShapeSources shape_sources(const Knobs& knobs, const std::string& backend);

}  // namespace caliber
