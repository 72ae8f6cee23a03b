// Views and copies that take a dim, an index range or a new shape, on the shapes FlagGems'
// benchmark classes list in code (keyed by class in shapes/core.yaml) and their input_fn
// arguments: narrow's (0, M / 4, M / 2), transpose's (0, ndim - 1), rot90's (1, [0, 1]).
#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kOut;

ops::Prototype view(const char* key, BuildFn inputs) {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(Family::kTensor)
        .shape_key(key)
        .shape_desc("input shape")
        .inputs(inputs)
        .flops(ops::output_numel);
  };
}

// The tensor of the shape, then the integers `ints(dims)` FlagGems' input_fn yields after it.
BuildFn tensor_with(std::function<std::vector<int64_t>(const std::vector<int64_t>&)> ints) {
  return [ints](const BuildContext& c, Args& a) {
    auto d = c.dims();
    a.t = {ops::random(c, d)};
    a.i = ints(d);
  };
}

}  // namespace

std::vector<OpDef> view_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  using Dims = std::vector<int64_t>;
  add(view("NarrowBenchmark", tensor_with([](const Dims& d) {
             return Dims{0, d[0] / 4, d[0] / 2};
           })),
      {{"narrow", "narrow"}});
  add(view("TransposeBenchmark", tensor_with([](const Dims& d) {
             return Dims{0, static_cast<int64_t>(d.size()) - 1};
           })),
      {{"transpose", "transpose.int"}});
  add(view("UnbindBenchmark", tensor_with([](const Dims&) { return Dims{0}; })),
      {{"unbind", "unbind.int"}});
  add(view("TensorSplitBenchmark", tensor_with([](const Dims&) { return Dims{3}; })),
      {{"tensor_split", "tensor_split.sections"}});
  add(view("DiagonalCopyBenchmark", tensor_with([](const Dims&) {
             return Dims{0, 1, 2};
           })),
      {{"diagonal_copy", "diagonal_copy"}});
  add(view("Rot90Benchmark",
           [](const BuildContext& c, Args& a) {
             a.t = {ops::random(c, c.dims())};
             a.i = {1};
             a.lists = {{0, 1}};
           }),
      {{"rot90", "rot90"}});
  add(view("UnsafeViewBenchmark",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             a.t = {ops::random(c, d)};
             a.lists = {{d[0] * d[1]}};
           }),
      {{"unsafe_view", "_unsafe_view"}});
  // pixel_unshuffle's shapes are FlagGems' `pixel_unshuffle` key: (N, C, H, W, factor).
  add(view("pixel_unshuffle",
           [](const BuildContext& c, Args& a) {
             auto d = c.dims();
             a.t = {ops::random(c, {d[0], d[1], d[2], d[3]})};
             a.i = {d[4]};
           }),
      {{"pixel_unshuffle", "pixel_unshuffle", kBase | kOut}});
  // t_copy on Benchmark's shapes: FlagGems' TCopyBenchmark yields only for the 2-D ones.
  add(
      [](const std::string& name) {
        return OpDef(name)
            .family(Family::kTensor)
            .inputs(ops::tensors(1))
            .flops(ops::output_numel)
            .skip_shapes([](const Shape& s) -> std::string {
              return s.items.size() == 2 ? "" : "t_copy takes 2-D inputs (FlagGems skips others)";
            });
      },
      {{"t_copy", "t_copy", kBase | kOut}});
  return out;
}

}  // namespace caliber
