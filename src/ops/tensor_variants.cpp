// Views, copies and shape ops by their ATen names, one row each, with FlagGems' input_fn
// arguments (view_copy's (-1,), unfold's dimension 0 / size 4 / step 2, chunk's 3 chunks...).
#include <ATen/ops/imag.h>
#include <ATen/ops/randint.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kBaseInplace;
using ops::kInplace;
using ops::kOut;

OpDef tensor_op(const std::string& name, BuildFn inputs, std::vector<DType> dtypes) {
  return OpDef(name)
      .family(Family::kTensor)
      .dtypes(std::move(dtypes))
      .inputs(std::move(inputs))
      .flops(ops::output_numel);
}

// UnaryPointwiseBenchmark's shapes: FlagGems benchmarks these copies as unary pointwise ops.
ops::Prototype unary_like(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return tensor_op(name, inputs, dtypes)
        .shape_key("UnaryPointwiseBenchmark")
        .shape_desc("(B), M, N")
        .more_shapes(ops::unary_more_shapes());
  };
}

ops::Prototype generic(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return tensor_op(name, inputs, dtypes)
        .shape_key("GenericBenchmark")
        .more_shapes(ops::generic_more_shapes());
  };
}

ops::Prototype generic_no_1d(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return tensor_op(name, inputs, dtypes)
        .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
        .more_shapes(ops::generic_more_shapes_no_1d());
  };
}

int64_t numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

std::vector<OpDef> tensor_variant_ops() {
  const std::vector<DType> kComplex = kComplexDTypes;
  std::vector<OpDef> out;
  auto add = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(std::move(op));
  };
  add(unary_like(ops::tensors(1)), {
                                       {"alias_copy", "alias_copy", kBase | kOut},
                                       {"lift", "lift", kBase | kOut},
                                       {"squeeze_copy", "squeeze_copy"},
                                   });
  add(unary_like(ops::tensors(1), kComplex), {
                                                 {"conj", "_conj"},
                                                 {"conj_copy", "_conj_copy", kBase | kOut},
                                             });
  add(unary_like([](const BuildContext& c, Args& a) {
        a.t.push_back(ops::random(c, c.dims()));
        a.lists.push_back({-1});
      }),
      {{"view_copy", "view_copy"}});
  // resize to the tensor's own element count: FlagGems' `resize(x, [x.numel()])`.
  add(unary_like([](const BuildContext& c, Args& a) {
        a.t.push_back(ops::random(c, c.dims()));
        a.lists.push_back({numel(c.dims())});
      }),
      {{"resize", "resize"}});
  // expand_copy to the shape itself, a last dim of 1 widened to 2.
  add(unary_like([](const BuildContext& c, Args& a) {
        auto dims = c.dims();
        a.t.push_back(ops::random(c, dims));
        if (dims.back() == 1) dims.back() = 2;
        a.lists.push_back(dims);
      }),
      {{"expand_copy", "expand_copy"}});
  add(generic(ops::tensors(1)),
      {
          {"alias", "alias"},
          {"lift_fresh", "lift_fresh"},
          {"lift_fresh_copy", "lift_fresh_copy"},
          {"flatten",
           "flatten.using_ints",
           kBase,
           {{"start_dim", int64_t{0}}, {"end_dim", int64_t{-1}}}},
          {"unfold",
           "unfold",
           kBase,
           {{"dimension", int64_t{0}}, {"size", int64_t{4}}, {"step", int64_t{2}}}},
          {"chunk", "chunk", kBase, {{"chunks", int64_t{3}}, {"dim", int64_t{0}}}},
      });
  // unsqueeze at dim 1 (dim 0 for 1-D shapes).
  add(generic(ops::tensor_and_dim()), {{"unsqueeze", "unsqueeze"}});
  // view_as_complex: the shape with a trailing 2.
  add(generic(
          [](const BuildContext& c, Args& a) {
            auto dims = c.dims();
            dims.push_back(2);
            a.t.push_back(ops::random(c, dims));
          },
          {DType::kFloat16, DType::kFloat32}),
      {{"view_as_complex", "view_as_complex"}});
  // expand_as: the shape with its first dim 1, expanded to the shape.
  add(generic([](const BuildContext& c, Args& a) {
        auto dims = c.dims();
        auto small = dims;
        small[0] = 1;
        a.t.push_back(ops::random(c, small));
        a.t.push_back(ops::random(c, dims));
      }),
      {{"expand_as", "expand_as"}});
  add(generic_no_1d(ops::tensors(1)), {{"triu", "triu", kInplace}});
  add(generic_no_1d(
          [](const BuildContext& c, Args& a) { a.t.push_back(ops::random(c, c.dims()).conj()); },
          kComplex),
      {{"resolve_conj", "resolve_conj"}});
  add(generic_no_1d([](const BuildContext& c,
                       Args& a) { a.t.push_back(at::imag(ops::random(c, c.dims()).conj())); },
                    kComplex),
      {{"resolve_neg", "resolve_neg"}});
  // Three tensors of the shape joined along dim 0 (FlagGems' `[inp1, inp2, inp3], {"dim": 0}`).
  const ops::ArgValue kDim0{"dim", int64_t{0}};
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(3), ops::float_and_int())
            .shape_key("ConcatBenchmark")
            .shape_desc("((B), M, N) * 3");
      },
      {{"concat", "concat", kBase, {kDim0}}});
  add(generic(ops::tensors(3), ops::float_and_int()),
      {{"concatenate", "concatenate", kBase, {kDim0}}});
  // cat_out: Benchmark's shapes up to 2^24 elements (FlagGems' CatOutBenchmark cap).
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(3), ops::float_and_int())
            .skip_shapes([](const Shape& s) -> std::string {
              int64_t n = 1;
              for (const auto& v : s.items) n *= v.integer;
              return n <= (int64_t{1} << 24) ? "" : "over FlagGems' cat_out cap of 2^24 elements";
            });
      },
      {{"cat", "cat", kOut, {kDim0}}});
  // repeat_interleave on FlagGems' op keys: 3 repeats per element; or per dim-0 row, repeats
  // drawn in [0, 31) (their sum sizes the output: the call waits for the device).
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims())};
        a.i = {3};
      }),
      {{"repeat_interleave_self_int", "repeat_interleave.self_int"}});
  auto row_repeats = [](const BuildContext& c) {
    return at::randint(0, 0x1F, {c.dims()[0]}, c.options().dtype(at::kLong));
  };
  add(
      [=](const std::string& name) {
        return generic(
                   [=](const BuildContext& c, Args& a) {
                     a.t = {ops::random(c, c.dims()), row_repeats(c)};
                     a.i = {0};
                   },
                   {DType::kInt32})(name)
            .host_sync();
      },
      {{"repeat_interleave_self_tensor", "repeat_interleave.self_Tensor"}});
  add(
      [=](const std::string& name) {
        return generic([=](const BuildContext& c, Args& a) { a.t = {row_repeats(c)}; },
                       {DType::kInt32})(name)
            .host_sync();
      },
      {{"repeat_interleave_tensor", "repeat_interleave.Tensor"}});
  // unflatten dim 0 into (f, M / f), f its smallest factor in [2, 16] (FlagGems' first case).
  add(generic([](const BuildContext& c, Args& a) {
        auto d = c.dims();
        int64_t f = 1;
        for (int64_t k = 2; k <= std::min<int64_t>(d[0], 16); ++k) {
          if (d[0] % k == 0) {
            f = k;
            break;
          }
        }
        a.t = {ops::random(c, d)};
        a.i = {0};
        a.lists = {{f, d[0] / f}};
      }),
      {{"unflatten", "unflatten.int"}});
  // unsafe_chunk into 2 along dim 0 (FlagGems' first case).
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims())};
        a.i = {2, 0};
      }),
      {{"unsafe_chunk", "unsafe_chunk"}});
  // resize_as to a 1-D template of the same element count.
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims()), ops::random(c, {numel(c.dims())})};
      }),
      {{"resize_as", "resize_as"}});
  // copy(template, src) on Benchmark's shapes (FlagGems' CopyFunctionalBenchmark).
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(2), ops::concat(ops::float_and_int(), kBoolDTypes));
      },
      {{"copy", "copy"}});
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(2), kFloatDTypes).shape_key("KronBenchmark");
      },
      {{"kron", "kron"}});
  add([](const std::string& name) { return generic_no_1d(ops::tensors(1))(name).backward(); },
      {{"diagonal_backward", "diagonal"}});
  out.back().aten({"aten::diagonal_backward"});  // what the timed autograd call dispatches
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(1), kFloatDTypes)
            .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
            .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
            .more_shapes(ops::generic_more_shapes_2d())
            .host_sync();
      },
      {{"nonzero_numpy", "nonzero_numpy"}});
  return out;
}

}  // namespace caliber
