#include "core/op_list.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "core/atomic_file.h"
#include "core/choice.h"
#include "core/error.h"
#include "core/parsed_file_cache.h"

namespace caliber {
namespace {

std::string text_field(const std::string& file, const YAML::Node& entry, const char* field) {
  YAML::Node node = entry[field];
  if (!node) return "";
  if (!node.IsScalar()) {
    throw_usage("{}:{}: '{}' must be text", file, node.Mark().line + 1, field);
  }
  return node.Scalar();
}

}  // namespace

OpList OpList::parse(const std::string& text, const std::string& name) {
  OpList out;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw_usage("{}:{}: {}", name, e.mark.line + 1, e.msg);
  }
  if (root.IsNull()) return out;
  // A list under one "dismiss" or "ops" key reads as the list itself.
  if (root.IsMap()) {
    for (const char* key : {"dismiss", "ops"}) {
      if (root[key] && root[key].IsSequence()) {
        root = root[key];
        break;
      }
    }
  }
  if (!root.IsSequence()) {
    throw_usage("{}:{}: an op list must be a YAML list of entries", name, root.Mark().line + 1);
  }
  int index = 0;
  for (const auto& node : root) {
    ++index;
    const int line = node.Mark().line + 1;
    if (!node.IsMap()) throw_usage("{}:{}: entry {} must be a mapping", name, line, index);
    OpListEntry entry;
    entry.line = line;
    entry.op = text_field(name, node, "op");
    entry.reason = text_field(name, node, "reason");
    entry.verified_on = text_field(name, node, "verified_on");
    entry.backend = to_lower(text_field(name, node, "backend"));
    if (entry.op.empty()) throw_usage("{}:{}: entry {} has no 'op'", name, line, index);
    if (entry.reason.empty()) {
      throw_usage("{}:{}: entry '{}' has no reason (every entry must say why it is listed)", name,
                  line, entry.op);
    }
    if (YAML::Node dtypes = node["dtypes"]) {
      if (!dtypes.IsSequence()) {
        throw_usage("{}:{}: entry '{}': 'dtypes' must be a list", name, line, entry.op);
      }
      for (const auto& d : dtypes) entry.dtypes.push_back(d.Scalar());
    }
    out.entries_.push_back(std::move(entry));
  }
  return out;
}

OpList OpList::load(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) throw_usage("op list {}: no such file", path.string());
  return parse(read_file(path), path.string());
}

std::shared_ptr<const OpList> OpList::cached(const std::filesystem::path& path) {
  return cached_parse(path, &OpList::load);
}

const OpListEntry* OpList::find(const std::string& op, const std::string& backend,
                                const std::string& dtype) const {
  for (const auto& entry : entries_) {
    if (entry.op != op) continue;
    if (!entry.backend.empty() && entry.backend != to_lower(backend)) continue;
    if (!entry.dtypes.empty() &&
        std::find(entry.dtypes.begin(), entry.dtypes.end(), dtype) == entry.dtypes.end()) {
      continue;
    }
    return &entry;
  }
  return nullptr;
}

}  // namespace caliber
