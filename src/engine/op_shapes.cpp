#include "engine/op_shapes.h"

namespace caliber {

ShapeSources shape_sources(const Knobs& knobs, const std::string& backend) {
  ShapeSources sources;
  sources.level = knobs.level;
  sources.mode = knobs.shape_mode;
  sources.shape_file = knobs.shape_file;
  sources.backend = backend;
  return sources;
}

ShapeSet resolve_op_shapes(const OpDef& op, const ShapeSources& sources) {
  return resolve_shapes(op.shape_query(), sources);
}

}  // namespace caliber
