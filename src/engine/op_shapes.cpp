#include "engine/op_shapes.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "engine/provider/candidate_checkout.h"

namespace caliber {

ShapeSources shape_sources(const Knobs& knobs, const std::string& backend) {
  ShapeSources sources;
  sources.level = knobs.level;
  sources.mode = knobs.shape_mode;
  sources.shape_file = knobs.shape_file;
  sources.backend = backend;
  if (knobs.shape_upstream) {
    std::filesystem::path checkout = candidate_checkout(knobs.candidate);
    sources.dir = checkout / "benchmark";
    // FlagGems' --shape_file names files of its checkout (benchmark/models_shapes/qwen25.yaml).
    if (!sources.shape_file.empty() && !std::filesystem::exists(sources.shape_file)) {
      for (const auto& base : {checkout / "benchmark", checkout}) {
        if (std::filesystem::exists(base / sources.shape_file)) {
          sources.shape_file = (base / sources.shape_file).string();
          break;
        }
      }
    }
  }
  return sources;
}

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
