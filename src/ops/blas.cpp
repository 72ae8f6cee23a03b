// BLAS: FlagGems' BlasBenchmark (B, M, N, K) and its neighbours (mv/outer, vdot, linear).
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_grouped_mm.h>
#include <ATen/ops/_scaled_grouped_mm.h>
#include <ATen/ops/_scaled_mm.h>
#include <ATen/ops/_sparse_semi_structured_mm.h>
#include <ATen/ops/_to_sparse_semi_structured.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/addmv.h>
#include <ATen/ops/addr.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/dot.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/full.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/linspace.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/mv.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/sparse_sampled_addmm.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/vdot.h>
#include <fmt/format.h>

#include "core/error.h"
#include "ops/builders.h"
#include "ops/families.h"
#include "ops/input_detail.h"
#include "ops/variants.h"

namespace caliber {
namespace {

struct Gemm {
  int64_t b, m, n, k;
};

Gemm gemm_of(const BuildContext& c) {
  auto d = c.dims();
  if (d.size() != 4)
    throw_usage("{}: BLAS shapes are (B, M, N, K), got {}", c.op, c.shape_case.label());
  return {d[0], d[1], d[2], d[3]};
}

// The second operand [.., K, N]; in the column-major pass, the transpose of a contiguous
// [.., N, K], as FlagGems builds it.
at::Tensor second_operand(const BuildContext& c, std::vector<int64_t> batch, int64_t k, int64_t n) {
  if (!c.shape_case.column_major) {
    batch.insert(batch.end(), {k, n});
    return ops::random(c, batch);
  }
  batch.insert(batch.end(), {n, k});
  return ops::random(c, batch).transpose(-1, -2);
}

void mm_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.m, g.k}), second_operand(c, {}, g.k, g.n)};
}

// A full [m, n] bias, as FlagGems' test_addmm.py builds it: with a broadcast [n] bias the
// candidate takes another, much slower path (docs/results.md, "Measurements behind source
// comments"), so the two harnesses would not time the same case.
void addmm_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.m, g.n}), ops::random(c, {g.m, g.k}), second_operand(c, {}, g.k, g.n)};
}

void bmm_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.b, g.m, g.k}), second_operand(c, {g.b}, g.k, g.n)};
}

void baddbmm_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.b, g.m, g.n}), ops::random(c, {g.b, g.m, g.k}),
         second_operand(c, {g.b}, g.k, g.n)};
}

// addbmm: an [M, N] bias plus the sum over B of [M, K] x [K, N].
void addbmm_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.m, g.n}), ops::random(c, {g.b, g.m, g.k}),
         second_operand(c, {g.b}, g.k, g.n)};
}

// linear(x [M, K], W [N, K]): the weight is naturally the column-major B.
void linear_inputs(const BuildContext& c, Args& a) {
  Gemm g = gemm_of(c);
  a.t = {ops::random(c, {g.m, g.k}), ops::random(c, {g.n, g.k}), ops::random(c, {g.n})};
}

OpDef blas(const char* name, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kBlas)
      .shape_key("BlasBenchmark")
      .shape_desc("B, M, N, K")
      .builtin_shapes({{2, 384, 384, 384},
                       {2, 4096, 4096, 4096},
                       {16, 1024, 1024, 1024},
                       {16, 2048, 2048, 2048},
                       {16, 4096, 4096, 4096}})
      .more_shapes(ops::blas_more_shapes())
      .column_major_pass()
      .inputs(std::move(inputs))
      .call(std::move(call))
      .tolerance(2);
}

void mv_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1]}), ops::random(c, {d[1]})};
}

void outer_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0]}), ops::random(c, {d[1]})};
}

void addmv_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0]}), ops::random(c, {d[0], d[1]}), ops::random(c, {d[1]})};
}

void addr_inputs(const BuildContext& c, Args& a) {
  auto d = c.dims();
  a.t = {ops::random(c, {d[0], d[1]}), ops::random(c, {d[0]}), ops::random(c, {d[1]})};
}

OpDef mv_outer(const char* name, BuildFn inputs, CallFn call, CountFn flops) {
  return OpDef(name)
      .family(Family::kBlas)
      .shape_key("MvAndOuterBenchmark")
      .shape_desc("M, N")
      .builtin_shapes({{384, 384}, {1024, 1024}, {4096, 4096}, {8192, 8192}, {10240, 10240}})
      .inputs(std::move(inputs))
      .call(std::move(call))
      .flops(std::move(flops))
      .tolerance(2);
}

double matrix_flops(const Args& a, const at::Tensor&) {
  return 2.0 * static_cast<double>(a.t[a.t.size() == 3 ? 1 : 0].numel());
}

double outer_flops(const Args&, const at::Tensor& out) { return static_cast<double>(out.numel()); }

OpDef vector_product(const char* name, CallFn call) {
  return OpDef(name)
      .family(Family::kBlas)
      .shape_keys({"vdot", "GenericBenchmark"})
      .shape_desc("M")
      .builtin_shapes({{64}, {1024}, {2048}, {4096}, {65536}})
      .inputs(ops::tensors(2))
      .call(std::move(call))
      .flops([](const Args& a, const at::Tensor&) { return 2.0 * a.t[0].numel(); })
      .tolerance(4);
}

// max |out - expected| / (max |expected| + 1) within the dtype's relative tolerance: for kernels
// whose float64 reference cannot run (float8 operands, bfloat16-only grouped GEMM).
std::string relative_match(const at::Tensor& out, const at::Tensor& expected) {
  const at::ScalarType type = out.scalar_type();
  const double tol = type == at::kBFloat16 ? 4e-2 : type == at::kHalf ? 1e-2 : 1e-4;
  const double scale = expected.abs().max().item<double>() + 1.0;
  const double off = (out.to(at::kCPU, at::kDouble) - expected).abs().max().item<double>() / scale;
  return off <= tol ? ""
                    : fmt::format("max |diff| / max |expected| = {:.3g} (accepted: {})", off, tol);
}

at::Tensor as_double(const at::Tensor& t) { return t.to(at::kCPU, at::kDouble); }

}  // namespace

std::vector<OpDef> blas_ops() {
  using A = Args;
  auto mnk = [](const Args& a, const at::Tensor& out) {
    const at::Tensor& lhs = a.t.size() == 3 ? a.t[1] : a.t[0];
    return 2.0 * static_cast<double>(out.numel()) * static_cast<double>(lhs.size(-1));
  };
  std::vector<OpDef> ops = {
      blas("mm", mm_inputs, [](A& a) { return at::mm(a.t[0], a.t[1]); }).flops(mnk),
      blas("addmm", addmm_inputs, [](A& a) { return at::addmm(a.t[0], a.t[1], a.t[2]); })
          .flops(mnk),
      blas("addmm_", addmm_inputs, [](A& a) { return a.t[0].addmm_(a.t[1], a.t[2]); })
          .flops(mnk)
          .inplace(),
      blas("bmm", bmm_inputs, [](A& a) { return at::bmm(a.t[0], a.t[1]); }).flops(mnk),
      blas("baddbmm", baddbmm_inputs, [](A& a) { return at::baddbmm(a.t[0], a.t[1], a.t[2]); })
          .flops(mnk),
      blas("matmul", bmm_inputs, [](A& a) { return at::matmul(a.t[0], a.t[1]); })
          .flops(mnk)
          .aten({"aten::matmul", "aten::bmm", "aten::mm"}),
      blas("linear", linear_inputs, [](A& a) { return at::linear(a.t[0], a.t[1], a.t[2]); })
          .shape_key("LinearBenchmark")
          .flops([](const Args& a, const at::Tensor& out) {
            return 2.0 * static_cast<double>(out.numel()) * static_cast<double>(a.t[0].size(-1));
          })
          .column_major_pass(false)
          .aten({"aten::linear", "aten::addmm"}),
      blas("linear_backward", linear_inputs,
           [](A& a) { return at::linear(a.t[0], a.t[1], a.t[2]); })
          .flops([](const Args& a, const at::Tensor& out) {
            return 4.0 * static_cast<double>(out.numel()) * static_cast<double>(a.t[0].size(-1));
          })
          .column_major_pass(false)
          .backward()
          .aten({"aten::mm", "aten::sum"}),
      blas("mm_backward", mm_inputs, [](A& a) { return at::mm(a.t[0], a.t[1]); })
          .flops([](const Args& a, const at::Tensor& out) {
            return 4.0 * static_cast<double>(out.numel()) * static_cast<double>(a.t[0].size(-1));
          })
          .backward()
          .aten({"aten::mm"}),
      mv_outer(
          "mv", mv_inputs, [](A& a) { return at::mv(a.t[0], a.t[1]); }, matrix_flops),
      mv_outer(
          "outer", outer_inputs, [](A& a) { return at::outer(a.t[0], a.t[1]); }, outer_flops)
          .aten({"aten::outer", "aten::mul"}),
      mv_outer(
          "addmv", addmv_inputs, [](A& a) { return at::addmv(a.t[0], a.t[1], a.t[2]); },
          matrix_flops),
      mv_outer(
          "addr", addr_inputs, [](A& a) { return at::addr(a.t[0], a.t[1], a.t[2]); }, outer_flops),
      vector_product("dot", [](A& a) { return at::dot(a.t[0], a.t[1]); }),
      vector_product("vdot", [](A& a) { return at::vdot(a.t[0], a.t[1]); }),
  };
  // In-place and out= variants of the rows above, on the same builders (src/ops/variants.h).
  auto gemm = [mnk](BuildFn inputs) -> ops::Prototype {
    return [=](const std::string& name) { return blas(name.c_str(), inputs, {}).flops(mnk); };
  };
  auto matrix_vector = [](BuildFn inputs, CountFn flops) -> ops::Prototype {
    return [=](const std::string& name) { return mv_outer(name.c_str(), inputs, {}, flops); };
  };
  auto add = ops::appender(ops);
  add(gemm(mm_inputs), {{"mm", "mm", ops::kOut}});
  add(gemm(addmm_inputs), {{"addmm", "addmm", ops::kOut}});
  // addmm.dtype: a float32 bias, half operands, a float32 result (FlagGems' float16/bfloat16
  // test); the out= form writes a float32 [M, N].
  auto addmm_dtype = [](bool out) -> ops::Prototype {
    return [=](const std::string& name) {
      return blas(name.c_str(),
                  [out](const BuildContext& c, Args& a) {
                    addmm_inputs(c, a);
                    a.t[0] = a.t[0].to(at::kFloat);
                    if (out) a.t.push_back(at::empty_like(a.t[0]));
                  },
                  {})
          .dtypes({DType::kFloat16, DType::kBFloat16})
          .flops([](const Args& a, const at::Tensor& result) {
            return 2.0 * static_cast<double>(result.numel()) * static_cast<double>(a.t[1].size(-1));
          })
          .detail([](const Args& a) {
            SizeDetail d;
            for (size_t i = 0; i < 3; ++i) d.arg(size_of(a.t[i]));
            d.arg(PyValue::raw("torch.float32"));
            if (a.t.size() > 3) d.arg(size_of(a.t[3]));
            return d;
          });
    };
  };
  // FlagGems' mm_self_transpose (under its `mm` mark): mm(x, x^T) of a column-major x [M, K].
  ops.push_back(OpDef("mm_self_transpose")
                    .family(Family::kBlas)
                    .shape_keys({"mm_self_transpose"})
                    .shape_desc("M, K")
                    .inputs([](const BuildContext& c, Args& a) {
                      auto d = c.dims();
                      a.t = {ops::random(c, {d[1], d[0]}).t()};
                    })
                    .call([](A& a) { return at::mm(a.t[0], a.t[0].t()); })
                    .flops([](const Args& a, const at::Tensor& out) {
                      return 2.0 * static_cast<double>(out.numel()) *
                             static_cast<double>(a.t[0].size(1));
                    })
                    .aten({"aten::mm"}));
  add(addmm_dtype(false), {{"addmm_dtype", "addmm.dtype"}});
  add(addmm_dtype(true), {{"addmm_dtype_out", "addmm.dtype_out"}});
  add(gemm(bmm_inputs), {{"bmm", "bmm", ops::kOut}});
  add(gemm(baddbmm_inputs), {{"baddbmm", "baddbmm", ops::kInplace | ops::kOut}});
  add(gemm(addbmm_inputs), {{"addbmm", "addbmm", ops::kBaseInplace}});
  add(matrix_vector(addmv_inputs, matrix_flops), {{"addmv", "addmv", ops::kInplace | ops::kOut}});
  add(matrix_vector(addr_inputs, outer_flops), {{"addr", "addr", ops::kInplace}});
  // _grouped_mm(A [sum M_g, K], B [G, K, N], offs): FlagGems' (groups, N, K), bfloat16, M_g
  // drawn in [1, 16384], U(0, 1) operands; checked per group against A_g B_g in float64.
  ops.push_back(
      OpDef("grouped_mm")
          .family(Family::kBlas)
          .shape_key("grouped_mm")
          .shape_desc("Groups, N, K")
          .dtypes({DType::kBFloat16})
          .inputs([](const BuildContext& c, Args& a) {
            auto d = c.dims();
            at::Tensor rows = at::randint(1, 16385, {d[0]}, at::TensorOptions().dtype(at::kInt));
            at::Tensor offs = rows.cumsum(0).to(at::kInt);
            const int64_t m = offs[-1].item<int64_t>();
            a.t = {at::rand({m, d[2]}, c.options()), at::rand({d[0], d[2], d[1]}, c.options()),
                   offs.to(c.device)};
          })
          .call([](A& a) { return at::_grouped_mm(a.t[0], a.t[1], a.t[2]); })
          .flops([](const Args& a, const at::Tensor&) {
            return 2.0 * static_cast<double>(a.t[0].size(0) * a.t[0].size(1) * a.t[1].size(2));
          })
          .check([](const Args& a, const at::Tensor& out) -> std::string {
            at::Tensor x = as_double(a.t[0]), w = as_double(a.t[1]), offs = a.t[2].cpu();
            at::Tensor expected = at::empty({x.size(0), w.size(2)}, x.options());
            int64_t start = 0;
            for (int64_t g = 0; g < w.size(0); ++g) {
              const int64_t end = offs[g].item<int64_t>();
              expected.slice(0, start, end).copy_(x.slice(0, start, end).matmul(w[g]));
              start = end;
            }
            return relative_match(out, expected);
          })
          .aten({"aten::_grouped_mm"}));
  // _scaled_mm(float8 A [M, K] = 0.25 N(0, 1), B [K, N] column-major, scale_a 0.75, scale_b
  // 1.25, bias N(0, 1) [N], None, float16, False) and its out= form: FlagGems' first case
  // (scalar scales, float16 out, bias); checked against (A B) s_a s_b + bias in float64.
  for (bool out : {false, true}) {
    ops.push_back(
        OpDef(out ? "scaled_mm_out" : "scaled_mm")
            .family(Family::kBlas)
            .shape_key("ScaledMMBenchmark")
            .shape_desc("M, N, K")
            .more_shapes({{1024, 1024, 1024}, {256, 4096, 4096}})
            .dtypes({DType::kFloat8E4M3})
            .inputs([out](const BuildContext& c, Args& a) {
              auto d = c.dims();
              auto f32 = c.options().dtype(at::kFloat);
              a.t = {at::randn({d[0], d[2]}, f32).mul_(0.25).to(c.scalar_type()),
                     at::randn({d[1], d[2]}, f32).mul_(0.25).to(c.scalar_type()).t(),
                     at::full({1}, 0.75, f32), at::full({1}, 1.25, f32),
                     at::randn({d[1]}, f32.dtype(at::kHalf))};
              if (out) a.t.push_back(at::empty({d[0], d[1]}, f32.dtype(at::kHalf)));
            })
            .call([out](A& a) {
              if (out) {
                return at::_scaled_mm_out(a.t[5], a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], {},
                                          at::kHalf, false);
              }
              return at::_scaled_mm(a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], {}, at::kHalf, false);
            })
            .flops([](const Args& a, const at::Tensor&) {
              return 2.0 * static_cast<double>(a.t[0].size(0) * a.t[0].size(1) * a.t[1].size(1));
            })
            .check([](const Args& a, const at::Tensor& result) -> std::string {
              at::Tensor expected = as_double(a.t[0]).matmul(as_double(a.t[1])) *
                                        (as_double(a.t[2]) * as_double(a.t[3])) +
                                    as_double(a.t[4]);
              return relative_match(result, expected);
            })
            .aten({out ? "aten::_scaled_mm.out" : "aten::_scaled_mm"}));
  }
  // _scaled_grouped_mm(float8 A [sum M_g, K], B [G, K, N], row scales of A linspace(0.75, 1.25),
  // of B linspace(1.25, 0.75) [G, N], offs, None, bfloat16): FlagGems' (groups, M per group, N,
  // K), group g of M + g rows (ops/dismiss.yaml: CUDA kernels only).
  ops.push_back(
      OpDef("scaled_grouped_mm")
          .family(Family::kBlas)
          .shape_key("ScaledGroupedMMBenchmark")
          .shape_desc("groups, M_per_group, N, K")
          .more_shapes({{16, 512, 1024, 1024}, {32, 256, 2048, 1024}})
          .dtypes({DType::kFloat8E4M3})
          .inputs([](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const int64_t groups = d[0], n = d[2], k = d[3];
            auto ints = at::TensorOptions().dtype(at::kInt);
            at::Tensor offs = at::arange(d[1], d[1] + groups, ints).cumsum(0).to(at::kInt);
            const int64_t m = offs[-1].item<int64_t>();
            auto f32 = c.options().dtype(at::kFloat);
            a.t = {at::randn({m, k}, f32).mul_(0.25).to(c.scalar_type()),
                   at::randn({groups, n, k}, f32).mul_(0.25).to(c.scalar_type()).transpose(-1, -2),
                   at::linspace(0.75, 1.25, m, f32),
                   at::linspace(1.25, 0.75, groups * n, f32).reshape({groups, n}),
                   offs.to(c.device)};
          })
          .call([](A& a) {
            return at::_scaled_grouped_mm(a.t[0], a.t[1], a.t[2], a.t[3], a.t[4], {}, {},
                                          at::kBFloat16, false);
          })
          .aten({"aten::_scaled_grouped_mm"}));
  // sparse_sampled_addmm(CSR [B, M, N] of 90% zeros, A [B, M, K], B [B, K, N]) and its out=
  // form: FlagGems' (B, M, N, K); the call gives the result's values (the CSR's stored
  // elements), which is what the op computes; float32 only, as FlagGems' baseline computes its
  // half types in float32.
  for (bool out : {false, true}) {
    ops.push_back(
        OpDef(out ? "sparse_sampled_addmm_out" : "sparse_sampled_addmm")
            .family(Family::kBlas)
            .shape_key("sparse_sampled_addmm")
            .shape_desc("B, M, N, K")
            .dtypes({DType::kFloat32})
            .inputs([out](const BuildContext& c, Args& a) {
              auto d = c.dims();
              const int64_t b = d[0], m = d[1], n = d[2], k = d[3];
              // Nonzero values: a batched CSR needs the same number of stored elements in every
              // batch, and an exact zero where the mask keeps one would drop it from its batch.
              at::Tensor dense = ops::random(c, {b, m, n}).abs_().add_(0.125);
              at::Tensor mask = at::rand({m, n}, c.options().dtype(at::kFloat)).gt(0.9);
              at::Tensor csr = (dense * mask).contiguous().to_sparse_csr();
              a.t = {csr, ops::random(c, {b, m, k}), ops::random(c, {b, k, n})};
              if (out) a.t.push_back(csr.clone());
            })
            .call([out](A& a) {
              if (out) {
                return at::sparse_sampled_addmm_out(a.t[3], a.t[0], a.t[1], a.t[2]).values();
              }
              return at::sparse_sampled_addmm(a.t[0], a.t[1], a.t[2]).values();
            })
            .aten({out ? "aten::sparse_sampled_addmm.out" : "aten::sparse_sampled_addmm"})
            .tolerance(4));
  }
  // _sparse_semi_structured_mm(A's kept half, its CUTLASS metadata, B [128, N]) for A [M, 128]
  // with two of every four elements kept (2:4 sparsity; one of every two for float32, the pattern
  // ATen's compression takes for 4-byte types), FlagGems' (M, N) with its K = 128.
  // FlagGems times its own op on a dense A and a random bool mask (its baseline is itself);
  // ATen's kernel takes the compressed form _to_sparse_semi_structured makes (ops/dismiss.yaml:
  // both have CUDA kernels only).
  ops.push_back(
      OpDef("sparse_semi_structured_mm")
          .family(Family::kBlas)
          .shape_key("SparseSemiStructuredMMBenchmark")
          .shape_desc("M, N")
          .inputs([](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const bool wide = c.scalar_type() == at::kFloat;
            at::Tensor keep = at::arange(128, c.options().dtype(at::kLong))
                                  .remainder(wide ? 2 : 4)
                                  .lt(wide ? 1 : 2);
            at::Tensor dense = ops::random(c, {d[0], 128}) * keep;
            auto [kept, meta] = at::_to_sparse_semi_structured(dense);
            a.t = {kept, meta, ops::random(c, {128, d[1]})};
          })
          .call([](A& a) { return at::_sparse_semi_structured_mm(a.t[0], a.t[1], a.t[2]); })
          .aten({"aten::_sparse_semi_structured_mm"}));
  return ops;
}

}  // namespace caliber
