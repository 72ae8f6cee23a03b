#include "core/shape_file.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <initializer_list>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parsed_file_cache.h"

namespace caliber {
namespace {

[[noreturn]] void reject(const std::string& file, const YAML::Mark& mark, const std::string& why) {
  throw_usage("{}:{}: {}", file, mark.line + 1, why);
}

ShapeValue scalar_value(const YAML::Node& node) {
  ShapeValue v;
  const std::string& s = node.Scalar();
  if (node.Tag() != "!") {  // a quoted scalar stays text
    int64_t i = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return ShapeValue::of(i);
    for (const char* t : {"true", "True", "TRUE"}) {
      if (s == t) {
        v.kind = ShapeValue::Kind::kBool;
        v.boolean = true;
        return v;
      }
    }
    for (const char* f : {"false", "False", "FALSE"}) {
      if (s == f) {
        v.kind = ShapeValue::Kind::kBool;
        return v;
      }
    }
    try {
      size_t used = 0;
      double d = std::stod(s, &used);
      if (used == s.size()) {
        v.kind = ShapeValue::Kind::kFloat;
        v.real = d;
        return v;
      }
    } catch (const std::exception&) {
    }
  }
  v.kind = ShapeValue::Kind::kString;
  v.text = s;
  return v;
}

ShapeValue node_value(const std::string& file, const YAML::Node& node) {
  if (node.IsScalar()) return scalar_value(node);
  if (node.IsSequence()) {
    ShapeValue v;
    v.kind = ShapeValue::Kind::kList;
    for (const auto& item : node) v.items.push_back(node_value(file, item));
    return v;
  }
  reject(file, node.Mark(), "a shape item must be a number, a boolean or a list");
}

// yaml-cpp parses `<<: *anchor` as an ordinary key; FlagGems (PyYAML) merges the anchored map.
YAML::Node merged(const std::string& file, const YAML::Node& map) {
  if (!map.IsMap()) return map;
  YAML::Node out(YAML::NodeType::Map);
  auto merge_from = [&](const YAML::Node& source) {
    if (!source.IsMap()) reject(file, source.Mark(), "'<<' must merge a mapping");
    for (const auto& kv : merged(file, source)) {
      if (!out[kv.first.Scalar()]) out[kv.first.Scalar()] = kv.second;
    }
  };
  for (const auto& kv : map) {
    if (kv.first.Scalar() != "<<") out[kv.first.Scalar()] = kv.second;
  }
  for (const auto& kv : map) {
    if (kv.first.Scalar() != "<<") continue;
    if (kv.second.IsSequence()) {
      for (const auto& source : kv.second) merge_from(source);
    } else {
      merge_from(kv.second);
    }
  }
  return out;
}

ShapeEntry parse_entry(const std::string& file, const std::string& key, const YAML::Node& raw) {
  if (!raw.IsMap()) {
    reject(file, raw.Mark(), fmt::format("'{}' must be a mapping with a 'shapes' list", key));
  }
  YAML::Node node = merged(file, raw);
  ShapeEntry entry;
  entry.line = raw.Mark().line + 1;
  YAML::Node shapes = node["shapes"];
  if (!shapes) reject(file, raw.Mark(), fmt::format("'{}' has no 'shapes' list", key));
  if (!shapes.IsSequence() || shapes.size() == 0) {
    reject(file, shapes.Mark(), fmt::format("'{}': 'shapes' must be a non-empty list", key));
  }
  for (const auto& item : shapes) {
    Shape shape;
    if (item.IsScalar()) {  // `- 64` reads as the 1-tuple (64,)
      shape.items.push_back(scalar_value(item));
    } else if (item.IsSequence()) {
      for (const auto& v : item) shape.items.push_back(node_value(file, v));
    } else {
      reject(file, item.Mark(), fmt::format("'{}': a shape must be a list", key));
    }
    if (shape.items.empty()) reject(file, item.Mark(), fmt::format("'{}': empty shape", key));
    entry.shapes.push_back(std::move(shape));
  }
  if (YAML::Node desc = node["shape_desc"]) {
    if (!desc.IsScalar()) {
      reject(file, desc.Mark(), fmt::format("'{}': 'shape_desc' must be text", key));
    }
    entry.shape_desc = desc.Scalar();
  }
  return entry;
}

}  // namespace

ShapeFile ShapeFile::parse(const std::string& text, const std::string& name) {
  ShapeFile out;
  out.name_ = name;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    reject(name, e.mark, e.msg);
  }
  if (root.IsNull()) throw_usage("{}:1: the shape file is empty", name);
  if (!root.IsMap()) reject(name, root.Mark(), "a shape file must map keys to shape lists");
  for (const auto& kv : root) {
    if (!kv.first.IsScalar()) reject(name, kv.first.Mark(), "a key must be a name");
    const std::string key = kv.first.Scalar();
    out.entries_[key] = parse_entry(name, key, kv.second);
  }
  return out;
}

ShapeFile ShapeFile::load(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const std::exception& e) {
    throw_usage("shape file {}: cannot be read ({})", path.string(), e.what());
  }
  return parse(text, path.string());
}

const ShapeEntry* ShapeFile::find(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

std::optional<std::pair<std::string, const ShapeEntry*>> ShapeFile::lookup(
    const std::vector<std::string>& chain) const {
  for (const auto& key : chain) {
    if (const ShapeEntry* entry = find(key)) return std::make_pair(key, entry);
  }
  return std::nullopt;
}

std::vector<std::string> ShapeFile::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, entry] : entries_) out.push_back(key);
  return out;
}

std::shared_ptr<const ShapeFile> cached_shape_file(const std::filesystem::path& path) {
  return cached_parse(path, &ShapeFile::load);
}

}  // namespace caliber
