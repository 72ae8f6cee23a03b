// Reductions, scans and softmax by their ATen overloads (dim, dims, correction, out=), one row
// each, with FlagGems' input_fn arguments: UnaryReductionBenchmark's dim 1, the scans' dim of
// their test, the `_out` tests' out= tensor.
#include <ATen/TensorOperators.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/segment_reduce.h>
#include <ATen/ops/tensor.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kBaseInplace;
using ops::kInplace;
using ops::kOut;

OpDef reduction_op(const std::string& name, BuildFn inputs, std::vector<DType> dtypes) {
  return OpDef(name)
      .family(Family::kReduction)
      .dtypes(std::move(dtypes))
      .inputs(std::move(inputs))
      .flops(ops::input_numel)
      .tolerance(4);
}

// UnaryReductionBenchmark: the tensor and dim 1 (dim 0 for 1-D shapes).
ops::Prototype along_dim1(std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return reduction_op(name, ops::tensor_and_dim(), dtypes)
        .shape_key("UnaryReductionBenchmark")
        .more_shapes(ops::reduction_more_shapes());
  };
}

// UnaryReductionBenchmark yields (x,) for 1-D x, so its torch_op (torch.max, torch.all...)
// reduces every element there: FlagGems times the operator without overload (aten::max, not
// max.dim) and prints the tensor alone. `op` is derived from a `<name>.<overload>` row.
OpDef whole_when_1d(OpDef op) {
  const std::string along = op.aten().front();                 // "aten::max.dim"
  const std::string whole = along.substr(0, along.find('.'));  // "aten::max"
  CallFn along_call = op.call();
  CallFn whole_call = ops::aten_call(whole);
  DetailFn along_detail = op.detail();
  BuildFn build = op.inputs();
  op.inputs([build](const BuildContext& c, Args& a) {
      build(c, a);
      if (c.dims().size() == 1) a.i.clear();
    })
      .call([=](Args& a) { return a.i.empty() ? whole_call(a) : along_call(a); })
      .detail([=](const Args& a) {
        return a.i.empty() ? ops::aten_call_detail(whole, {}, a) : along_detail(a);
      })
      .aten({along, whole});
  return op;
}

// The tensor, then `ints` and `lists` as the test's input_fn yields them.
BuildFn tensor_then(std::vector<int64_t> ints, std::vector<std::vector<int64_t>> lists = {}) {
  return [=](const BuildContext& c, Args& a) {
    a.t.push_back(ops::random(c, c.dims()));
    a.i = ints;
    a.lists = lists;
  };
}

ops::Prototype generic(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return reduction_op(name, inputs, dtypes)
        .shape_key("GenericBenchmark")
        .more_shapes(ops::generic_more_shapes());
  };
}

ops::Prototype generic_2d(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return reduction_op(name, inputs, dtypes)
        .shape_keys({"GenericBenchmark2DOnly", "GenericBenchmark"})
        .builtin_shapes({{64, 64}, {256, 256}, {1024, 1024}, {4096, 4096}, {1024, 65536}})
        .more_shapes(ops::generic_more_shapes_2d());
  };
}

ops::Prototype generic_no_1d(BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
  return [=](const std::string& name) {
    return reduction_op(name, inputs, dtypes)
        .shape_keys({"GenericBenchmarkExcluse1D", "GenericBenchmark"})
        .more_shapes(ops::generic_more_shapes_no_1d());
  };
}

// FlagGems' `dim = 1 if len(shape) > 1 else 0`.
BuildFn tensor_and_dim() { return ops::tensor_and_dim(); }

}  // namespace

std::vector<OpDef> reduction_variant_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  auto add_whole_when_1d = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(whole_when_1d(std::move(op)));
  };
  add_whole_when_1d(along_dim1(), {
                                      {"all_dim", "all.dim"},
                                      {"max_dim", "max.dim"},
                                      {"min_dim", "min.dim"},
                                      {"sum_dim", "sum.dim_IntList"},
                                      {"var_correction", "var.correction"},
                                  });
  add_whole_when_1d(along_dim1(ops::float_and_bool()), {{"any_dim", "any.dim"}});
  // test_var.py's VarDimBenchmark yields (x, 0) for 1-D x.
  add(along_dim1(), {{"var_dim", "var.dim"}});
  add(generic(tensor_and_dim()), {{"sum_dim", "sum.dim_IntList", kOut, {}, "sum.IntList_out"}});
  add(generic(ops::tensors(1)), {{"sum", "sum", kOut}});
  add(generic_no_1d(tensor_then({}, {{1}})), {{"mean_dim", "mean.dim"}});
  add(generic_no_1d(tensor_then({}, {{0, 1}})), {
                                                    {"all_dims", "all.dims"},
                                                    {"any_dims", "any.dims"},
                                                });
  // torch.norm(x), torch.norm(x, 2) and torch.norm(x, 2, -1, False) all return
  // torch.linalg.vector_norm(...) for strided tensors (torch/functional.py): that is the op timed.
  add(generic_no_1d(ops::tensors(1)), {
                                          {"norm_scalar", "linalg_vector_norm"},
                                          {"norm", "linalg_vector_norm", kBase, {{"ord", 2.0}}},
                                      });
  add(generic_no_1d(tensor_then({-1})),
      {{"norm_scalaropt_dim", "linalg_vector_norm", kBase, {{"ord", 2.0}, {"keepdim", false}}}});
  add(generic(ops::tensors(2)),
      {
          {"dist", "dist"},
          // FlagGems' test_equal.py times torch.sub under the `equal` mark.
          {"equal", "sub.Tensor"},
      });
  // nansum of 10 * randn with 30% NaN, over every element (FlagGems' first case).
  add(
      [](const std::string& name) {
        return along_dim1()(name).inputs([](const BuildContext& c, Args& a) {
          at::Tensor x = ops::random(c, c.dims()) * 10;
          a.t = {x.masked_fill(at::rand(c.dims(), x.options().dtype(at::kFloat)) > 0.7, NAN)};
        });
      },
      {{"nansum", "nansum"}});
  // Fixed shape lists of FlagGems' classes (shapes/core.yaml keys).
  auto keyed = [](const char* key, BuildFn inputs) -> ops::Prototype {
    return [=](const std::string& name) {
      return reduction_op(name, inputs, kFloatDTypes).shape_key(key);
    };
  };
  add(keyed("LogsumexpBenchmark", tensor_then({1})), {{"special_logsumexp", "special_logsumexp"}});
  add(keyed("RenormBenchmark",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, d)};
              a.f = {2.0};
              a.i = {d.size() > 1 ? 1 : 0};
            }),
      {{"renorm", "renorm", kBaseInplace, {{"maxnorm", 1.0}}}});
  // nanmedian of randn with every 17th element NaN.
  auto with_nans = [](const BuildContext& c, Args& a) {
    at::Tensor x = ops::random(c, c.dims());
    x.reshape(-1).slice(0, 0, c10::nullopt, 17).fill_(NAN);
    a.t = {x};
  };
  add(keyed("nanmedian", with_nans), {{"nanmedian", "nanmedian", kBase | kOut}});
  add(
      [](const std::string& name) {
        return reduction_op(name, ops::tensors(1), ops::float_and_int())
            .shape_keys({"median"})
            .shape_desc("input shape");
      },
      {{"median", "median"}});
  // The last dim, 1-D shapes skipped: FlagGems' special_log_softmax and safe_softmax inputs.
  auto last_dim = [](const std::string& name) {
    return reduction_op(name, tensor_then({-1}), kFloatDTypes)
        .more_shapes(
            {{1024, 1}, {1024, 16}, {1024, 256}, {1024, 4096}, {1024, 65536}, {1024, 1048576}})
        .skip_shapes([](const Shape& s) -> std::string {
          return s.items.size() >= 2 ? "" : "FlagGems yields no input for 1-D shapes";
        });
  };
  add(last_dim, {{"special_log_softmax", "special_log_softmax"}});
  add([](const std::string& name) { return reduction_op(name, tensor_then({-1}), kFloatDTypes); },
      {{"safe_softmax", "_safe_softmax"}});
  add(generic_2d(tensor_then({-1})), {{"mode", "mode"}});
  // Softmax backward: (grad_output, output, dim, input dtype).
  add(generic_2d([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims()), ops::random(c, c.dims()).log_softmax(-1)};
        a.i = {-1};
      }),
      {{"log_softmax_backward_data", "_log_softmax_backward_data", kBase | kOut}});
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims()), ops::random(c, c.dims())};
        a.i = {c.dims().size() > 1 ? 1 : 0};
      }),
      {{"softmax_backward", "_softmax_backward_data", kOut, {}, "_softmax_backward_data.out"}});
  add(generic_2d(tensor_then({-1})), {{"cumsum", "cumsum", kOut}});
  add(generic_2d(tensor_then({1})), {
                                        {"logcumsumexp", "logcumsumexp", kOut},
                                        {"cumprod", "cumprod", kInplace},
                                    });
  // float32 first: ATen's CPU trace has no Half/BFloat16 kernel (ops/dismiss.yaml).
  add(generic_2d(ops::tensors(1), {DType::kFloat32, DType::kFloat16, DType::kBFloat16}),
      {{"trace", "trace"}});
  add(generic_2d(ops::tensors(1), {DType::kFloat32}),
      {{"histc", "histc", kBase, {{"bins", int64_t{100}}, {"min", 0.0}, {"max", 10.0}}}});
  add(generic(tensor_and_dim()),
      {{"softmax", "_softmax", kOut, {ops::yielded("half_to_float", false)}}});
  add(generic_no_1d(tensor_then({1})),
      {{"log_softmax", "_log_softmax", kOut, {ops::yielded("half_to_float", false)}}});
  add(
      [](const std::string& name) {
        return reduction_op(name, ops::tensors(1), kFloatDTypes)
            .shape_key("UnaryReductionBenchmark");
      },
      {{"aminmax", "aminmax"}});
  // nanmedian along the last dim, 1-D shapes skipped (FlagGems yields nothing for them); the
  // dim_values form writes into (values, indices) tensors of the reduced shape.
  auto nanmedian_dim = [with_nans](bool values) -> ops::Prototype {
    return [=](const std::string& name) {
      return reduction_op(
                 name,
                 [=](const BuildContext& c, Args& a) {
                   with_nans(c, a);
                   a.i = {-1};
                   if (!values) return;
                   auto d = c.dims();
                   d.pop_back();
                   a.t.push_back(at::empty(d, c.options()));
                   a.t.push_back(at::empty(d, c.options().dtype(at::kLong)));
                 },
                 kFloatDTypes)
          .shape_key(name)
          .shape_desc("M, N")
          .skip_shapes([](const Shape& s) -> std::string {
            return s.items.size() > 1 ? "" : "FlagGems yields no input for 1-D shapes";
          });
    };
  };
  add(nanmedian_dim(false), {{"nanmedian_dim", "nanmedian.dim"}});
  add(nanmedian_dim(true), {{"nanmedian_dim_values", "nanmedian.dim_values"}});
  // quantile(x, q = [0, 0.2, ..., 1], dim 0), float32, FlagGems' `quantile` shape key.
  add(
      [](const std::string& name) {
        return reduction_op(name,
                            [](const BuildContext& c, Args& a) {
                              a.t = {ops::random(c, c.dims()),
                                     at::tensor({0.0, 0.2, 0.4, 0.6, 0.8, 1.0}, c.options())};
                              a.i = {0};
                            },
                            {DType::kFloat32})
            .shape_key("quantile")
            .more_shapes({{4},
                          {1024},
                          {65535},
                          {1024, 1},
                          {1024, 8},
                          {1024, 64},
                          {1024, 512},
                          {1024, 4096},
                          {64, 64, 1},
                          {64, 64, 8},
                          {64, 64, 64},
                          {64, 64, 512},
                          {64, 64, 4096}});
      },
      {{"quantile", "quantile"}});
  // segment_reduce(data, "sum", lengths, axis, unsafe): axis 1 (0 for 1-D), min(64, size)
  // segments of near-equal length, per outer index (FlagGems' first of its five reductions).
  // Args::t = data, lengths; Args::i = axis.
  auto segments = [](const BuildContext& c, Args& a) {
    auto d = c.dims();
    const int64_t axis = d.size() == 1 ? 0 : 1;
    const int64_t count = std::min<int64_t>(64, d[axis]);
    at::Tensor lengths = at::full({count}, d[axis] / count, at::kLong);
    lengths.slice(0, 0, d[axis] % count).add_(1);
    std::vector<int64_t> outer(d.begin(), d.begin() + axis);
    outer.push_back(count);
    a.t = {ops::random(c, d), lengths.expand(outer).contiguous().to(c.device)};
    a.i = {axis};
  };
  auto segment_op = [](BuildFn inputs) -> ops::Prototype {
    return [=](const std::string& name) {
      return reduction_op(name, inputs, kFloatDTypes)
          .shape_keys({"segment_reduce"})
          .shape_desc("data shape")
          .more_shapes({{65536}, {2048, 256}, {128, 256, 128}});
    };
  };
  add(segment_op(segments),
      {{"segment_reduce", "segment_reduce", kBase | kOut, {{"reduce", "sum"}, {"unsafe", true}}}});
  // _segment_reduce_backward(grad, output, data, "sum", lengths, axis): the forward's output
  // and a gradient of its shape, as FlagGems builds them.
  add(segment_op([segments](const BuildContext& c, Args& a) {
        segments(c, a);
        at::Tensor output = at::segment_reduce(a.t[0], "sum", a.t[1], {}, {}, a.i[0], true);
        a.t = {ops::random(c, output.sizes()), output, a.t[0], a.t[1]};
      }),
      {{"segment_reduce_backward", "_segment_reduce_backward", kBase | kOut, {{"reduce", "sum"}}}});
  return out;
}

}  // namespace caliber
