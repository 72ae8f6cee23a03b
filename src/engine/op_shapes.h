#pragma once

#include <string>

#include "core/shape_resolver.h"
#include "core/shape_set.h"
#include "ops/op_def.h"

namespace caliber {

ShapeSet resolve_op_shapes(const OpDef& op, const ShapeSources& sources);

}  // namespace caliber
