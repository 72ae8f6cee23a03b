#include "engine/op_shapes.h"

#include <fmt/format.h>

#include <algorithm>

namespace caliber {

ShapeSet resolve_op_shapes(const OpDef& op, const ShapeSources& sources) {
  ShapeSet set = resolve_shapes(op.shape_query(), sources);
  if (!op.skip_shapes()) return set;
  std::vector<Shape> kept;
  for (auto& shape : set.shapes) {
    std::string why = op.skip_shapes()(shape);
    if (why.empty()) {
      kept.push_back(std::move(shape));
    } else {
      set.skipped.push_back(fmt::format("{}: {}", shape.to_string(), why));
    }
  }
  set.shapes = std::move(kept);
  std::erase_if(set.cases, [&](const ShapeCase& c) {
    return std::find(set.shapes.begin(), set.shapes.end(), c.shape) == set.shapes.end();
  });
  return set;
}

}  // namespace caliber
