#pragma once

#include <string>

#include "core/knobs.h"
#include "core/shape_resolver.h"
#include "core/shape_set.h"
#include "ops/op_def.h"

namespace caliber {

// The shape sources a run uses: level, SHAPE_MODE, --shape-file, and the backend whose override
// file (shapes/<backend>.yaml) applies.
ShapeSources shape_sources(const Knobs& knobs, const std::string& backend);

ShapeSet resolve_op_shapes(const OpDef& op, const ShapeSources& sources);

}  // namespace caliber
