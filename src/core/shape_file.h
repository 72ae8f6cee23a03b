#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.h"

namespace caliber {

// One key of a shape file: FlagGems' `{shapes: [...], shape_desc: "..."}`.
struct ShapeEntry {
  std::vector<Shape> shapes;
  std::string shape_desc;  // empty when the file gives none
  int line = 0;            // 1-based, where the key is written
};

// A shape file in FlagGems' format (core_shapes.yaml, models_shapes/*.yaml): top-level keys are
// op names or benchmark class names; anchors and `<<:` merge keys are honoured. Keys caliber
// does not know are kept (a model file names ops caliber may not have), fields other than
// `shapes` and `shape_desc` are ignored, as FlagGems does.
class ShapeFile {
 public:
  // Throws a usage error "FILE:LINE: reason" for unreadable or malformed files.
  static ShapeFile load(const std::filesystem::path& path);
  static ShapeFile parse(const std::string& text, const std::string& name);

  // The first key of `chain` the file has, with its entry.
  std::optional<std::pair<std::string, const ShapeEntry*>> lookup(
      const std::vector<std::string>& chain) const;
  const ShapeEntry* find(const std::string& key) const;
  const std::string& name() const { return name_; }
  std::vector<std::string> keys() const;

 private:
  std::string name_;
  std::map<std::string, ShapeEntry> entries_;
};

// Loads each file once per process while it is unchanged (shape resolution asks for the same
// files op after op).
std::shared_ptr<const ShapeFile> cached_shape_file(const std::filesystem::path& path);

}  // namespace caliber
