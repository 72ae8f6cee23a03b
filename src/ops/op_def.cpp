#include "ops/op_def.h"

#include <algorithm>

namespace caliber {

// FlagGems' DEFAULT_SHAPES: what an op runs at when no shape file names it.
const std::vector<Shape>& default_builtin_shapes() {
  static const std::vector<Shape> shapes = {
      {1024 * 1024 * 1024}, {64, 64}, {4096, 4096}, {64, 512, 512}, {1024, 1024, 1024}};
  return shapes;
}

OpDef::OpDef(std::string name) : name_(std::move(name)) {
  aten_ = {"aten::" + name_};
  builtin_shapes_ = default_builtin_shapes();
}

OpDef& OpDef::family(Family family) {
  family_ = family;
  return *this;
}
OpDef& OpDef::dtypes(std::vector<DType> dtypes) {
  dtypes_ = std::move(dtypes);
  return *this;
}
OpDef& OpDef::shape_keys(std::vector<std::string> keys) {
  shape_keys_ = std::move(keys);
  return *this;
}
OpDef& OpDef::shape_key(std::string key) {
  shape_keys_.insert(shape_keys_.begin(), std::move(key));
  return *this;
}
OpDef& OpDef::shape_desc(std::string desc) {
  shape_desc_ = std::move(desc);
  return *this;
}
OpDef& OpDef::builtin_shapes(std::vector<Shape> shapes) {
  builtin_shapes_ = std::move(shapes);
  return *this;
}
OpDef& OpDef::more_shapes(std::vector<Shape> shapes) {
  more_shapes_ = std::move(shapes);
  return *this;
}
OpDef& OpDef::column_major_pass(bool on) {
  column_major_pass_ = on;
  return *this;
}
OpDef& OpDef::skip_shapes(SkipShapeFn why) {
  skip_shapes_ = std::move(why);
  return *this;
}
OpDef& OpDef::inputs(BuildFn build) {
  build_ = std::move(build);
  return *this;
}
OpDef& OpDef::call(CallFn call) {
  call_ = std::move(call);
  return *this;
}
OpDef& OpDef::bytes(CountFn bytes) {
  bytes_ = std::move(bytes);
  return *this;
}
OpDef& OpDef::flops(CountFn flops) {
  flops_ = std::move(flops);
  return *this;
}
OpDef& OpDef::check(CheckFn check) {
  check_ = std::move(check);
  return *this;
}
OpDef& OpDef::tolerance(double scale) {
  tolerance_ = scale;
  return *this;
}
OpDef& OpDef::inplace(bool on) {
  inplace_ = on;
  return *this;
}
OpDef& OpDef::backward(bool on) {
  backward_ = on;
  return *this;
}
OpDef& OpDef::host_sync(bool on) {
  host_sync_ = on;
  return *this;
}
OpDef& OpDef::rng(bool on) {
  rng_ = on;
  return *this;
}
OpDef& OpDef::aten(std::vector<std::string> names) {
  aten_ = std::move(names);
  return *this;
}

OpDef& OpDef::aliases(std::vector<std::string> names) {
  aliases_ = std::move(names);
  return *this;
}
OpDef& OpDef::detail(DetailFn detail) {
  detail_ = std::move(detail);
  return *this;
}
OpDef& OpDef::python_fn(std::string name, std::vector<PyArg> args, std::size_t result) {
  python_fn_ = PythonFn{std::move(name), std::move(args), result};
  return *this;
}

bool OpDef::answers_to(const std::string& name) const {
  return name == name_ || std::find(aliases_.begin(), aliases_.end(), name) != aliases_.end();
}

bool OpDef::supports(DType dtype) const {
  return std::find(dtypes_.begin(), dtypes_.end(), dtype) != dtypes_.end();
}

std::vector<std::string> OpDef::flag_names() const {
  std::vector<std::string> out;
  if (inplace_) out.push_back("inplace");
  if (backward_) out.push_back("backward");
  if (host_sync_) out.push_back("host_sync");
  if (rng_) out.push_back("rng");
  if (column_major_pass_) out.push_back("column_major_pass");
  return out;
}

ShapeQuery OpDef::shape_query() const {
  ShapeQuery q;
  q.op = name_;
  q.class_keys = shape_keys_;
  q.builtin = builtin_shapes_;
  q.builtin_desc = shape_desc_;
  q.more_shapes = more_shapes_;
  q.column_major_pass = column_major_pass_;
  return q;
}

}  // namespace caliber
