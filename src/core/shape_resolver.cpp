#include "core/shape_resolver.h"

#include <algorithm>
#include <initializer_list>

#include "core/data_paths.h"
#include "core/shape_file.h"

namespace caliber {

std::vector<std::string> fallback_chain(const ShapeQuery& query) {
  std::vector<std::string> chain = {query.op};
  for (const auto& key : query.class_keys) {
    if (std::find(chain.begin(), chain.end(), key) == chain.end()) chain.push_back(key);
  }
  if (chain.back() != "Benchmark") chain.push_back("Benchmark");
  return chain;
}

std::vector<std::filesystem::path> shape_file_order(const ShapeSources& sources) {
  std::filesystem::path dir = sources.dir.empty() ? shapes_dir() : sources.dir;
  std::vector<std::filesystem::path> files;
  if (!sources.shape_file.empty()) {
    files.push_back(sources.shape_file);
  } else if (!sources.backend.empty()) {
    std::filesystem::path override_file = dir / (sources.backend + ".yaml");
    if (std::filesystem::exists(override_file)) files.push_back(override_file);
  }
  // A FlagGems checkout's benchmark/ folder (SHAPE_MODE=upstream) holds core_shapes.yaml.
  std::filesystem::path core = dir / "core.yaml";
  if (!std::filesystem::exists(core) && std::filesystem::exists(dir / "core_shapes.yaml")) {
    core = dir / "core_shapes.yaml";
  }
  files.push_back(core);
  return files;
}

std::vector<Shape> merge_unique(const std::vector<Shape>& first, const std::vector<Shape>& more) {
  std::vector<Shape> out;
  for (const auto* list : {&first, &more}) {
    for (const auto& shape : *list) {
      if (std::find(out.begin(), out.end(), shape) == out.end()) out.push_back(shape);
    }
  }
  return out;
}

ShapeSet resolve_shapes(const ShapeQuery& query, const ShapeSources& sources) {
  ShapeSet set;
  set.op = query.op;
  set.level = sources.level;
  set.mode = sources.mode;
  set.source = "builtin";
  set.key = "builtin";
  set.shape_desc = query.builtin_desc;
  std::vector<Shape> core = query.builtin;
  if (sources.mode == ShapeMode::kFile) {
    const auto chain = fallback_chain(query);
    for (const auto& path : shape_file_order(sources)) {
      auto file = cached_shape_file(path);
      if (auto hit = file->lookup(chain)) {
        set.source = path.string();
        set.key = hit->first;
        core = hit->second->shapes;
        if (!hit->second->shape_desc.empty()) set.shape_desc = hit->second->shape_desc;
        break;
      }
    }
  }
  const bool comprehensive = sources.level == Level::kComprehensive;
  set.shapes = comprehensive ? merge_unique(core, query.more_shapes) : merge_unique(core, {});
  set.column_major_pass = comprehensive && query.column_major_pass;
  for (const auto& shape : set.shapes) set.cases.push_back({shape, false});
  if (set.column_major_pass) {
    for (const auto& shape : set.shapes) set.cases.push_back({shape, true});
  }
  return set;
}

}  // namespace caliber
