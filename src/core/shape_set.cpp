#include "core/shape_set.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/fnv1a.h"

namespace caliber {
namespace {

void emit_value(YAML::Emitter& out, const ShapeValue& v) {
  switch (v.kind) {
    case ShapeValue::Kind::kInt:
      out << v.integer;
      break;
    case ShapeValue::Kind::kFloat:
      out << v.real;
      break;
    case ShapeValue::Kind::kBool:
      out << v.boolean;
      break;
    case ShapeValue::Kind::kString:
      out << YAML::DoubleQuoted << v.text;
      break;
    case ShapeValue::Kind::kList:
      out << YAML::Flow << YAML::BeginSeq;
      for (const auto& item : v.items) emit_value(out, item);
      out << YAML::EndSeq;
      break;
  }
}

void emit_shapes(YAML::Emitter& out, const std::vector<Shape>& shapes) {
  out << YAML::BeginSeq;
  for (const auto& shape : shapes) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& item : shape.items) emit_value(out, item);
    out << YAML::EndSeq;
  }
  out << YAML::EndSeq;
}

void emit_set(YAML::Emitter& out, const ShapeSet& set) {
  out << YAML::Key << set.op << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "shapes" << YAML::Value;
  emit_shapes(out, set.shapes);
  out << YAML::Key << "shape_desc" << YAML::Value << YAML::DoubleQuoted << set.shape_desc;
  out << YAML::Key << "level" << YAML::Value << to_string(set.level);
  out << YAML::Key << "shape_mode" << YAML::Value << to_string(set.mode);
  out << YAML::Key << "source" << YAML::Value << set.source;
  out << YAML::Key << "key" << YAML::Value << set.key;
  out << YAML::Key << "column_major_pass" << YAML::Value << set.column_major_pass;
  out << YAML::Key << "cases" << YAML::Value << set.cases.size();
  if (!set.skipped.empty()) {
    out << YAML::Key << "skipped" << YAML::Value << YAML::BeginSeq;
    for (const auto& why : set.skipped) out << YAML::DoubleQuoted << why;
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

// The digest's basis lacks the standard basis's last digit; it stays so, because every recorded
// run_identity.json carries digests made with it and the caliber gate compares them.
constexpr uint64_t kShapeSetBasis = 1469598103934665603ull;

std::string digest_of(const std::string& text) {
  return fmt::format("{:016x}", fnv1a(text, kShapeSetBasis));
}

std::string canonical(const ShapeSet& set) {
  std::string out = fmt::format("{}|{}|", set.op, to_string(set.level));
  for (const auto& c : set.cases) out += c.label() + ";";
  return out;
}

}  // namespace

std::string ShapeSet::to_yaml() const { return shape_sets_to_yaml({*this}); }

std::string ShapeSet::digest() const { return digest_of(canonical(*this)); }

std::string shape_sets_to_yaml(const std::vector<ShapeSet>& sets) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto& set : sets) emit_set(out, set);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string shape_sets_digest(const std::vector<ShapeSet>& sets) {
  std::string all;
  for (const auto& set : sets) all += canonical(set) + "\n";
  return digest_of(all);
}

}  // namespace caliber
