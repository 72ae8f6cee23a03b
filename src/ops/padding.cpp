// Reflection and replication padding, forward, out= and backward, on FlagGems' (shape, padding)
// lists. A shape here is one flat tuple whose last 2k numbers are the padding of the k padded
// dims (last dim first, as ATen reads it); shapes/core.yaml keys them by FlagGems' class.
#include "core/error.h"
#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kOut;

struct Padded {
  std::vector<int64_t> input;
  std::vector<int64_t> padding;
  std::vector<int64_t> output;
};

Padded split(const BuildContext& c, int spatial) {
  auto d = c.dims();
  const size_t n = 2 * static_cast<size_t>(spatial);
  if (d.size() <= n) {
    throw_usage("{}: a padding shape is the tensor's dims then {} paddings, got {}", c.op, n,
                c.shape_case.label());
  }
  Padded p;
  p.input.assign(d.begin(), d.end() - n);
  p.padding.assign(d.end() - n, d.end());
  p.output = p.input;
  for (int k = 0; k < spatial; ++k) {
    p.output[p.output.size() - 1 - k] += p.padding[2 * k] + p.padding[2 * k + 1];
  }
  return p;
}

// (input, padding), FlagGems' `yield x, list(padding)`.
BuildFn forward(int spatial) {
  return [spatial](const BuildContext& c, Args& a) {
    Padded p = split(c, spatial);
    a.t = {ops::random(c, p.input)};
    a.lists = {p.padding};
  };
}

// (grad_output, input, padding), FlagGems' `yield grad, x, padding`.
BuildFn backward(int spatial) {
  return [spatial](const BuildContext& c, Args& a) {
    Padded p = split(c, spatial);
    a.t = {ops::random(c, p.output), ops::random(c, p.input)};
    a.lists = {p.padding};
  };
}

ops::Prototype pad(const char* key, BuildFn inputs) {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(Family::kTensor)
        .shape_key(key)
        .shape_desc("shape, padding (last dim first)")
        .inputs(inputs)
        .flops(ops::output_numel);
  };
}

}  // namespace

std::vector<OpDef> padding_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  add(pad("ReflectionPad1dBenchmark", forward(1)),
      {{"reflection_pad1d", "reflection_pad1d", kBase | kOut}});
  add(pad("ReflectionPad2dBenchmark", forward(2)),
      {{"reflection_pad2d", "reflection_pad2d", kOut}});
  add(pad("ReflectionPad3dBenchmark", forward(3)),
      {{"reflection_pad3d", "reflection_pad3d", kBase | kOut}});
  add(pad("ReplicationPad1dBenchmark", forward(1)), {{"replication_pad1d", "replication_pad1d"}});
  add(pad("ReplicationPad2dBenchmark", forward(2)),
      {{"replication_pad2d", "replication_pad2d", kBase | kOut}});
  // FlagGems draws the replication_pad3d padding p in [1, 3] per run; 2 stands for it.
  add(pad("ReplicationPad3dBenchmark", forward(3)), {{"replication_pad3d", "replication_pad3d"}});
  add(pad("ReflectionPad1dBackwardBenchmark", backward(1)),
      {{"reflection_pad1d_backward", "reflection_pad1d_backward"}});
  add(
      [](const std::string& name) {
        return pad("ReflectionPad2dBackwardBenchmark", backward(2))(name).more_shapes(
            {{1, 3, 512, 512, 2, 2, 2, 2},
             {8, 64, 128, 128, 2, 2, 2, 2},
             {4, 128, 64, 64, 2, 2, 2, 2}});
      },
      {{"reflection_pad2d_backward", "reflection_pad2d_backward"}});
  add(pad("ReflectionPad3dBackwardBenchmark", backward(3)),
      {{"reflection_pad3d_backward", "reflection_pad3d_backward"}});
  add(pad("ReplicationPad2dBackwardBenchmark", backward(2)),
      {{"replication_pad2d_backward", "replication_pad2d_backward"}});
  add(pad("ReplicationPad3dBackwardBenchmark", backward(3)),
      {{"replication_pad3d_backward", "replication_pad3d_backward"}});
  return out;
}

}  // namespace caliber
