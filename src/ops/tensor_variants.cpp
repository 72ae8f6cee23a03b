// Views, copies and shape ops by their ATen names, one row each, with FlagGems' input_fn
// arguments (view_copy's (-1,), unfold's dimension 0 / size 4 / step 2, chunk's 3 chunks...).
#include <ATen/ops/_nested_view_from_buffer_copy.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/imag.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <fmt/format.h>

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
  auto add = ops::appender(out);
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
      {{"resize", "resize", kBaseInplace}});
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
  add(generic_no_1d(ops::tensors(1)), {{"triu", "triu", kInplace}, {"tril", "tril", kOut}});
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
      {{"resize_as", "resize_as", kBaseInplace}});
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
  add(generic(ops::tensor_and_dim()), {{"unsqueeze", "unsqueeze", kInplace}});
  add(unary_like(ops::tensors(1)), {{"chalf", "chalf"}});
  // narrow_copy(x, 0, M / 4, M / 2) on TensorSelectBenchmark's shapes.
  add(
      [](const std::string& name) {
        return tensor_op(
                   name,
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, d)};
                     a.i = {0, d[0] / 4, d[0] / 2};
                   },
                   kFloatDTypes)
            .shape_keys({"TensorSelectBenchmark", "GenericBenchmark2DOnly"});
      },
      {{"narrow_copy", "narrow_copy"}});
  // The shape classes below list FlagGems' own shapes, keyed by class in shapes/core.yaml;
  // trailing integers of a row are the input_fn's arguments.
  auto keyed = [](const char* key, BuildFn inputs, std::vector<DType> dtypes = kFloatDTypes) {
    return [=](const std::string& name) { return tensor_op(name, inputs, dtypes).shape_key(key); };
  };
  using Dims = std::vector<int64_t>;
  auto head = [](const Dims& d, size_t tail) { return Dims(d.begin(), d.end() - tail); };
  // unfold_copy: (shape..., dimension, size, step).
  add(keyed("unfold_copy",
            [=](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, head(d, 3))};
              a.i = {d[d.size() - 3], d[d.size() - 2], d.back()};
            }),
      {{"unfold_copy", "unfold_copy"}});
  add(keyed("UnbindCopyBenchmark",
            [](const BuildContext& c, Args& a) {
              a.t = {ops::random(c, c.dims())};
              a.i = {0};
            }),
      {{"unbind_copy", "unbind_copy.int"}});
  // split_with_sizes_copy along dim 0 into M / 4, M / 4 and the rest.
  add(keyed("SplitWithSizesCopyBenchmark",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, d)};
              a.lists = {{d[0] / 4, d[0] / 4, d[0] - 2 * (d[0] / 4)}};
              a.i = {0};
            }),
      {{"split_with_sizes_copy", "split_with_sizes_copy"}});
  // channel_shuffle: (N, C, H, W, groups).
  add(keyed("channel_shuffle",
            [=](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, head(d, 1))};
              a.i = {d.back()};
            }),
      {{"channel_shuffle", "channel_shuffle"}});
  // expand: every size-1 dim widened by 2, 3, 4 in turn (FlagGems' ExpandBenchmark); FlagGems
  // times Tensor.expand under `expand_` too, so that mark is an alias.
  add(keyed("expand",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, d)};
              Dims target = d;
              int64_t ones = 0;
              for (auto& x : target) {
                if (x == 1) x *= 2 + (ones++ % 3);
              }
              a.lists = {target};
            }),
      {{"expand", "expand"}});
  out.back().aliases({"expand_"});
  // broadcast_tensors to the shape: [1, N, ...] and [M, 1, ...] (a 1-D shape: [M] and [1]).
  add(keyed("broadcast_tensors",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              if (d.size() < 2) {
                a.t = {ops::random(c, d), ops::random(c, {1})};
                return;
              }
              Dims x = d, y = d;
              x[0] = 1;
              y[1] = 1;
              a.t = {ops::random(c, x), ops::random(c, y)};
            }),
      {{"broadcast_tensors", "broadcast_tensors"}});
  // as_strided_scatter: (rows, cols, row stride, col stride, offset, storage size).
  add(keyed("AsStridedScatterBenchmark",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, {d[5]}), ops::random(c, {d[0], d[1]})};
              a.lists = {{d[0], d[1]}, {d[2], d[3]}};
              a.i = {d[4]};
            }),
      {{"as_strided_scatter", "as_strided_scatter"}});
  // as_strided_copy: (input rank, input dims..., size..., stride..., storage offset).
  add(keyed(
          "as_strided_copy",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const auto rank = static_cast<size_t>(d[0]);
            const size_t view = (d.size() - 2 - rank) / 2;
            auto at_ = [&](size_t from, size_t n) {
              return Dims(d.begin() + from, d.begin() + from + n);
            };
            a.t = {ops::random(c, at_(1, rank))};
            a.lists = {at_(1 + rank, view), at_(1 + rank + view, view)};
            a.i = {d.back()};
          },
          ops::concat(ops::float_and_int(), kBoolDTypes)),
      {{"as_strided_copy", "as_strided_copy", kBase | kOut}});
  // diagonal_scatter(x, src, 0, -2, -1), src the main diagonal's shape.
  add(keyed("DiagonalScatterBenchmark",
            [](const BuildContext& c, Args& a) {
              at::Tensor x = ops::random(c, c.dims());
              a.t = {x, ops::random(c, x.diagonal(0, -2, -1).sizes())};
              a.i = {0, -2, -1};
            }),
      {{"diagonal_scatter", "diagonal_scatter"}});
  // block_diag of num_blocks square blocks: (num_blocks, block_size).
  add(keyed("BlockDiagBenchmark",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              for (int64_t k = 0; k < d[0]; ++k) a.t.push_back(ops::random(c, {d[1], d[1]}));
            }),
      {{"block_diag", "block_diag"}});
  add(keyed("conj_physical", ops::tensors(1), ops::concat(ops::float_and_int(), kComplexDTypes)),
      {{"conj_physical", "conj_physical"}});
  // _reshape_alias of an (M, N) tensor to [M * N] with stride [1].
  add(keyed("ReshapeAliasBenchmark",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              a.t = {ops::random(c, d)};
              a.lists = {{numel(d)}, {1}};
            }),
      {{"_reshape_alias", "_reshape_alias"}});
  // _is_all_true of a random bool tensor, Benchmark's shapes.
  add(
      [](const std::string& name) {
        return tensor_op(
                   name,
                   [](const BuildContext& c, Args& a) {
                     a.t = {at::randint(0, 2, c.dims(), c.options().dtype(at::kBool))};
                   },
                   kBoolDTypes)
            .more_shapes({{1049600},
                          {1073741824},
                          {1024, 1},
                          {1024, 16},
                          {1024, 256},
                          {1024, 4096},
                          {1024, 65536},
                          {1024, 1048576},
                          {64, 1, 64},
                          {64, 16, 64},
                          {64, 256, 64},
                          {64, 4096, 64}});
      },
      {{"is_all_true", "_is_all_true"}});
  // bincount of M draws in [0, 10), GenericBenchmark's 1-D-sized shapes up to 10^6 elements;
  // the output's length waits for the input's maximum.
  add(
      [](const std::string& name) {
        return generic(
                   [](const BuildContext& c, Args& a) {
                     a.t = {at::randint(0, 10, {c.dims()[0]}, c.options().dtype(at::kLong))};
                   },
                   {DType::kFloat32})(name)
            .host_sync()
            .skip_shapes([](const Shape& s) -> std::string {
              return s.items.front().integer <= 1000000 ? ""
                                                        : "FlagGems skips shape[0] > 1,000,000";
            });
      },
      {{"bincount", "bincount"}});
  // F.pad(x, [1] * 2 ndim, "constant", 3.0): FlagGems draws pads in [0, 10] and the value in
  // [0, 1024) per run; these stand for them.
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims())};
        a.lists = {std::vector<int64_t>(2 * c.dims().size(), 1)};
        a.f = {3.0};
      }),
      {{"pad", "pad", kBase, {{"mode", "constant"}}}});
  // broadcast_to: (source rank, source dims..., target dims...).
  add(keyed("broadcast_to",
            [](const BuildContext& c, Args& a) {
              auto d = c.dims();
              const auto rank = static_cast<std::ptrdiff_t>(d[0]);
              a.t = {ops::random(c, Dims(d.begin() + 1, d.begin() + 1 + rank))};
              a.lists = {Dims(d.begin() + 1 + rank, d.end())};
            }),
      {{"broadcast_to", "broadcast_to"}});
  // unfold_backward(grad, input sizes, dim, size, step): (input sizes..., dim, size, step), the
  // gradient of the windows' shape.
  add(keyed("UnfoldBackwardBenchmark",
            [=](const BuildContext& c, Args& a) {
              auto d = c.dims();
              Dims sizes = head(d, 3);
              const int64_t size = d[d.size() - 2], step = d.back();
              const int64_t rank = static_cast<int64_t>(sizes.size());
              const int64_t dim = (d[d.size() - 3] % rank + rank) % rank;
              Dims grad = sizes;
              grad[dim] = (sizes[dim] - size) / step + 1;
              grad.push_back(size);
              a.t = {ops::random(c, grad)};
              a.lists = {sizes};
              a.i = {d[d.size() - 3], size, step};
            }),
      {{"unfold_backward", "unfold_backward"}});
  // _chunk_cat([x], dim 0, 2 chunks): FlagGems' first of its two chunk counts.
  add(
      [](const std::string& name) {
        return tensor_op(name, ops::tensors(1), kFloatDTypes)
            .shape_key("ChunkCatBenchmark")
            .shape_desc("input shape")
            .inputs([](const BuildContext& c, Args& a) {
              a.t = {ops::random(c, c.dims())};
              a.i = {0, 2};
            });
      },
      {{"chunk_cat", "_chunk_cat"}});
  // _compute_linear_combination(x [N, K], coefficients [M, N]) on the (M, N, K) shapes of
  // GenericBenchmark and FlagGems' MNK list (it skips shapes of another rank).
  add(
      [](const std::string& name) {
        return tensor_op(
                   name,
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     a.t = {ops::random(c, {d[1], d[2]}), ops::random(c, {d[0], d[1]})};
                   },
                   kFloatDTypes)
            .shape_keys({"ComputeLinearCombinationBenchmark", "GenericBenchmark"})
            .shape_desc("M, N, K")
            .more_shapes({{64, 64, 64}, {128, 256, 512}, {256, 512, 1024}, {8, 1024, 4096}})
            .skip_shapes([](const Shape& shape) -> std::string {
              return shape.items.size() == 3 ? "" : "FlagGems takes (M, N, K) shapes only";
            })
            .tolerance(4);
      },
      {{"compute_linear_combination", "_compute_linear_combination", kBase | kOut}});
  // _jagged_to_padded_dense_forward(values [total], [offsets], [max_length], 0.0): B sequences
  // of lengths drawn in [1, max_length].
  add(
      [](const std::string& name) {
        return tensor_op(
                   name,
                   [](const BuildContext& c, Args& a) {
                     auto d = c.dims();
                     at::Tensor lengths = at::randint(1, d[1] + 1, {d[0]}, at::kLong);
                     at::Tensor offsets = at::cat({at::zeros({1}, at::kLong), lengths.cumsum(0)});
                     const int64_t total = offsets[-1].item<int64_t>();
                     a.t = {ops::random(c, {total}), offsets.to(c.device)};
                     a.lists = {{d[1]}};
                     a.f = {0.0};
                   },
                   kFloatDTypes)
            .shape_key("JaggedToPaddedDenseForwardBenchmark")
            .shape_desc("B, max_length");
      },
      {{"jagged_to_padded_dense_forward", "_jagged_to_padded_dense_forward"}});
  // _functional_sym_constrain_range(5, 1, 10, dep_token) and the _for_size form: FlagGems'
  // values, a dep_token of GenericBenchmark's shape.
  add(generic([](const BuildContext& c, Args& a) {
        a.t = {ops::random(c, c.dims())};
        a.i = {5, 1, 10};
      }),
      {
          {"functional_sym_constrain_range", "_functional_sym_constrain_range"},
          {"functional_sym_constrain_range_for_size", "_functional_sym_constrain_range_for_size"},
      });
  // _functional_assert_async.msg(ones, message, empty dep_token) on FlagGems' one-element shapes
  // (ops/dismiss.yaml: a CPU kernel only).
  add(
      [](const std::string& name) {
        return tensor_op(name,
                         [](const BuildContext& c, Args& a) {
                           a.t = {at::ones(c.dims(), c.options()), at::empty({0}, c.options())};
                         },
                         {DType::kInt32, DType::kFloat32, DType::kFloat16})
            .shape_key("FunctionalAssertAsyncBenchmark")
            .shape_desc("shape of the one-element tensor")
            .host_sync();
      },
      {{"functional_assert_async",
        "_functional_assert_async.msg",
        kBase,
        {{"assert_msg", "Benchmark functional_assert_async"}}}});
  // _nested_view_from_buffer_copy(buffer, sizes [[L_i]], strides [[1]], offsets): a nested
  // tensor of three 1-D components laid end to end from offset 0, FlagGems' (buffer size, L_1,
  // L_2, L_3). The result is nested, so it is checked component by component against the
  // buffer's slices rather than through the dense float64 reference.
  out.push_back(tensor_op(
                    "nested_view_from_buffer_copy",
                    [](const BuildContext& c, Args& a) {
                      auto d = c.dims();
                      // The nested sizes, strides and offsets are host metadata of the result.
                      auto longs = at::TensorOptions().dtype(at::kLong);
                      std::vector<int64_t> sizes(d.begin() + 1, d.end()), offsets = {0};
                      for (size_t k = 0; k + 1 < sizes.size(); ++k) {
                        offsets.push_back(offsets.back() + sizes[k]);
                      }
                      a.t = {ops::random(c, {d[0]}), at::tensor(sizes, longs).view({-1, 1}),
                             at::ones({static_cast<int64_t>(sizes.size()), 1}, longs),
                             at::tensor(offsets, longs)};
                    },
                    kFloatDTypes)
                    .shape_key("NestedViewFromBufferCopyBenchmark")
                    .shape_desc("buffer size, component lengths")
                    .call([](Args& a) {
                      return at::_nested_view_from_buffer_copy(a.t[0], a.t[1], a.t[2], a.t[3]);
                    })
                    .flops({})
                    .check([](const Args& a, const at::Tensor& nested) -> std::string {
                      auto parts = nested.unbind();
                      at::Tensor offsets = a.t[3].cpu(), sizes = a.t[1].cpu();
                      for (size_t k = 0; k < parts.size(); ++k) {
                        const int64_t start = offsets[k].item<int64_t>();
                        const int64_t length = sizes[k][0].item<int64_t>();
                        if (!parts[k].cpu().equal(a.t[0].cpu().slice(0, start, start + length))) {
                          return fmt::format("component {} differs from the buffer's slice", k);
                        }
                      }
                      return "";
                    })
                    .aten({"aten::_nested_view_from_buffer_copy"}));
  return out;
}

}  // namespace caliber
