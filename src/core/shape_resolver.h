#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/caliber_options.h"
#include "core/shape.h"
#include "core/shape_set.h"

namespace caliber {

// What an op says about its shapes, without torch: the keys of FlagGems' fallback chain, its
// built-in defaults, and what level=comprehensive adds.
struct ShapeQuery {
  std::string op;                       // tried first
  std::vector<std::string> class_keys;  // then these, in order; "Benchmark" is always last
  std::vector<Shape> builtin;           // SHAPE_MODE=builtin, and when no file has a key
  std::string builtin_desc;
  std::vector<Shape> more_shapes;  // merged after the core list at level=comprehensive
  bool column_major_pass = false;  // comprehensive: every shape again, B column-major (BLAS)
};

// Where the shapes come from.
struct ShapeSources {
  Level level = Level::kCore;
  ShapeMode mode = ShapeMode::kFile;
  std::string shape_file;     // --shape-file; empty: shapes/core.yaml
  std::string backend;        // shapes/<backend>.yaml overrides the default file when it exists
  std::filesystem::path dir;  // empty: shapes_dir()
};

// The chain a query walks: op, class keys, "Benchmark".
std::vector<std::string> fallback_chain(const ShapeQuery& query);

// Files are tried in order and the first one holding any key of the chain decides, so a
// backend override that defines `Benchmark` keeps every op small. With --shape-file (a FlagGems
// model file lists a few ops only) caliber's core file answers for the ops it does not name.
std::vector<std::filesystem::path> shape_file_order(const ShapeSources& sources);

ShapeSet resolve_shapes(const ShapeQuery& query, const ShapeSources& sources);

// Order-preserving union without duplicates (FlagGems' dict.fromkeys(core + more)).
std::vector<Shape> merge_unique(const std::vector<Shape>& first, const std::vector<Shape>& more);

}  // namespace caliber
