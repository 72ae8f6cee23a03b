#pragma once

#include <string>
#include <vector>

#include "core/caliber_options.h"
#include "core/shape.h"

namespace caliber {

// The shapes one op runs at, once the fallback chain, the level and the backend override have
// been applied. Written to the run's shapes.yaml; its digest is the run identity's shape_set.
struct ShapeSet {
  std::string op;
  Level level = Level::kCore;
  ShapeMode mode = ShapeMode::kFile;
  std::string source;  // the file the shapes came from, or "builtin"
  std::string key;     // the key that matched: the op, a class key, or "Benchmark"
  std::string shape_desc;
  std::vector<Shape> shapes;       // unique, in order
  bool column_major_pass = false;  // every shape again with the second operand column-major
  std::vector<ShapeCase> cases;    // what the run iterates: shapes, then the column-major pass
  // Shapes the op's rule left out of `shapes` and `cases`, each with why: "[1073741824]: ...".
  std::vector<std::string> skipped;

  // FlagGems-format YAML (`op: {shapes: [...], shape_desc: ...}` plus caliber's fields), so a
  // run's shapes.yaml can be passed back as --shape-file.
  std::string to_yaml() const;
  // Stable across machines: the op, level and cases only (not the file's path).
  std::string digest() const;
};

std::string shape_sets_to_yaml(const std::vector<ShapeSet>& sets);
std::string shape_sets_digest(const std::vector<ShapeSet>& sets);

}  // namespace caliber
