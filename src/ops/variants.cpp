#include "ops/variants.h"

#include <ATen/ops/empty_like.h>

#include <stdexcept>

#include "ops/input_detail.h"

namespace caliber::ops {

std::string variant_mark(const std::string& mark, Variant v) {
  if (v == kInplace) return mark + "_";
  if (v == kOut) return mark + "_out";
  return mark;
}

std::string variant_aten(const std::string& aten, Variant v) {
  auto dot = aten.find('.');
  std::string name = aten.substr(0, dot);
  std::string overload = dot == std::string::npos ? "" : aten.substr(dot + 1);
  if (v == kInplace) name += "_";
  if (v == kOut) overload = overload.empty() ? "out" : overload + "_out";
  return overload.empty() ? name : name + "." + overload;
}

std::vector<OpDef> derive(const Prototype& proto, const Row& row) {
  std::vector<OpDef> out;
  for (Variant v : {kBase, kInplace, kOut}) {
    if ((row.variants & v) == 0) continue;
    const std::string aten =
        "aten::" + (v == kOut && !row.out_aten.empty() ? row.out_aten : variant_aten(row.aten, v));
    OpDef op = proto(variant_mark(row.mark, v));
    op.call(aten_call(aten, row.fixed)).aten({aten});
    if (v == kInplace) op.inplace();
    // A prototype's own DetailFn prints the inputs; without one, the call prints as the
    // schema takes it (out= by keyword under its schema name: ([inputs], {'out': size})).
    DetailFn inputs_detail = op.detail();
    if (!inputs_detail) {
      op.detail(
          [aten, fixed = row.fixed](const Args& a) { return aten_call_detail(aten, fixed, a); });
    }
    if (v == kOut) {
      BuildFn build = op.inputs();
      CallFn base = aten_call("aten::" + row.aten, row.fixed);
      op.inputs([build, base](const BuildContext& c, Args& a) {
        build(c, a);
        a.t.push_back(at::empty_like(base(a)));
      });
      // FlagGems passes out= by keyword, so its Size Detail reads ([inputs], {'out': size}).
      if (inputs_detail) {
        op.detail([inputs_detail](const Args& a) {
          Args inputs = a;
          inputs.t.pop_back();
          SizeDetail d = inputs_detail(inputs);
          d.kwarg("out", size_of(a.t.back()));
          return d;
        });
      }
    }
    out.push_back(std::move(op));
  }
  return out;
}

std::vector<OpDef> derive_all(const Prototype& proto, const std::vector<Row>& rows) {
  std::vector<OpDef> out;
  for (const Row& row : rows) {
    for (auto& op : derive(proto, row)) out.push_back(std::move(op));
  }
  return out;
}

OpDef& named(std::vector<OpDef>& ops, const std::string& name) {
  for (OpDef& op : ops) {
    if (op.name() == name) return op;
  }
  throw std::logic_error("no op named " + name);
}

void also_reaches(std::vector<OpDef>& ops, const std::string& name, const std::string& aten) {
  OpDef& op = named(ops, name);
  std::vector<std::string> names = op.aten();
  names.push_back(aten);
  op.aten(std::move(names));
}

std::function<void(const Prototype&, const std::vector<Row>&)> appender(std::vector<OpDef>& out) {
  return [&out](const Prototype& proto, const std::vector<Row>& rows) {
    for (auto& op : derive_all(proto, rows)) out.push_back(std::move(op));
  };
}

}  // namespace caliber::ops
