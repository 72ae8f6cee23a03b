// linalg_* and friends by their ATen operators, on the matrices FlagGems' linalg benchmark
// classes list in code (keyed by class in shapes/core.yaml), built as their input code builds
// them (cholesky's B B^T + 0.1 I, cholesky_inverse's factor of B B^T + n I).
#include <ATen/TensorOperators.h>
#include <ATen/ops/cdist.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/geqrf.h>
#include <ATen/ops/linalg_cholesky.h>
#include <ATen/ops/linalg_ldl_factor_ex.h>
#include <ATen/ops/linalg_lu_factor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/pdist.h>
#include <fmt/format.h>

#include "ops/builders.h"
#include "ops/derived_families.h"
#include "ops/variants.h"

namespace caliber {
namespace {

using ops::kBase;
using ops::kOut;

const std::vector<DType> kFloat32And64 = {DType::kFloat32, DType::kFloat64};

ops::Prototype matrix(const char* key, BuildFn inputs, std::vector<DType> dtypes) {
  return [=](const std::string& name) {
    return OpDef(name)
        .family(Family::kBlas)
        .shape_key(key)
        .shape_desc("input shape")
        .dtypes(dtypes)
        .inputs(inputs)
        .tolerance(10);
  };
}

// B B^T + shift * I for a random B of the case's shape: symmetric positive definite.
at::Tensor positive_definite(const BuildContext& c, const std::vector<int64_t>& d, double shift) {
  at::Tensor b = ops::random(c, d);
  return b.matmul(b.transpose(-2, -1)) + at::eye(d.back(), c.options()) * shift;
}
at::Tensor positive_definite(const BuildContext& c, double shift) {
  return positive_definite(c, c.dims(), shift);
}

// The U of an SVD is unique only up to the signs of its columns (and the order of equal singular
// values), so it is not compared with the float64 reference: its columns must be orthonormal.
std::string orthonormal_columns(const Args&, const at::Tensor& u) {
  at::Tensor q = u.to(at::kCPU, at::kDouble);
  at::Tensor gram = q.transpose(-2, -1).matmul(q);
  const double off = (gram - at::eye(gram.size(-1), gram.options())).abs().max().item<double>();
  return off <= 1e-3 ? "" : fmt::format("U^T U differs from I by {:.3g} (accepted: 1e-3)", off);
}

// Eigenvalues come in an order the LAPACK driver picks, so they are checked through an
// invariant: their sum is the matrix's trace.
std::string sum_is_trace(const Args& a, const at::Tensor& values) {
  at::Tensor sum = values.to(at::kCPU, at::kComplexDouble).sum();
  at::Tensor x = a.t[0].to(at::kCPU, at::kDouble);
  const double trace = x.trace().item<double>();
  const double scale = values.to(at::kCPU, at::kComplexDouble).abs().sum().item<double>() + 1.0;
  const double re = at::real(sum).item<double>() - trace, im = at::imag(sum).item<double>();
  const double off = std::max(std::abs(re), std::abs(im));
  return off <= 1e-4 * scale
             ? ""
             : fmt::format("sum of eigenvalues is {:.3g} off the trace {:.6g}", off, trace);
}

}  // namespace

std::vector<OpDef> linalg_ops() {
  std::vector<OpDef> out;
  auto add = ops::appender(out);
  add(matrix(
          "CholeskyBenchmark",
          [](const BuildContext& c, Args& a) { a.t = {positive_definite(c, 0.1)}; }, kFloat32And64),
      {{"linalg_cholesky", "linalg_cholesky"}});
  add(matrix(
          "CholeskyInverseBenchmark",
          [](const BuildContext& c, Args& a) {
            a.t = {at::linalg_cholesky(positive_definite(c, static_cast<double>(c.dims().back())))};
          },
          kFloat32And64),
      {{"cholesky_inverse", "cholesky_inverse"}});
  add(matrix("DetBenchmark", ops::tensors(1), kFloat32And64),
      {{"linalg_det", "linalg_det", kBase | kOut}});
  add(matrix("SlogdetBenchmark", ops::tensors(1), {DType::kFloat32}),
      {{"linalg_slogdet", "linalg_slogdet"}});
  add(matrix("VecdotBenchmark", ops::tensors(2), kFloat32And64),
      {{"linalg_vecdot", "linalg_vecdot", kBase | kOut}});
  // FlagGems' SvdBenchmark is a GenericBenchmark2DOnly whose extra shapes are square matrices.
  add(
      [](const std::string& name) {
        return matrix("GenericBenchmark2DOnly", ops::tensors(1), {DType::kFloat32})(name)
            .more_shapes({{16, 16}, {32, 32}, {64, 64}, {128, 128}, {256, 256}, {512, 512}});
      },
      {{"linalg_svdvals", "linalg_svdvals"}});
  // Distances on FlagGems' own shape lists, float32, p = 2: cdist's and euclidean_dist's
  // (N1, N2, D) for x1 [N1, D] and x2 [N2, D]; pdist's (N, D).
  const std::vector<DType> kFloat32 = {DType::kFloat32};
  auto two_sets = [](bool p) -> BuildFn {
    return [p](const BuildContext& c, Args& a) {
      auto d = c.dims();
      a.t = {ops::random(c, {d[0], d[2]}), ops::random(c, {d[1], d[2]})};
      if (p) a.f = {2.0};
    };
  };
  add(matrix("CdistBenchmark", two_sets(true), kFloat32), {
                                                              {"cdist", "cdist"},
                                                              {"cdist_forward", "_cdist_forward"},
                                                          });
  add(matrix("EuclideanDistBenchmark", two_sets(false), kFloat32),
      {{"euclidean_dist", "_euclidean_dist"}});
  add(matrix(
          "PdistBenchmark",
          [](const BuildContext& c, Args& a) {
            a.t = {ops::random(c, c.dims())};
            a.f = {2.0};
          },
          kFloat32),
      {
          {"pdist", "pdist"},
          {"pdist_forward", "_pdist_forward"},
      });
  // _pdist_backward(ones of the N (N - 1) / 2 pairs, x, 2, pdist(x)), PdistBenchmark's shapes.
  add(matrix(
          "PdistBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            at::Tensor x = ops::random(c, d);
            a.t = {at::ones({d[0] * (d[0] - 1) / 2}, c.options()), x, at::pdist(x, 2.0)};
            a.f = {2.0};
          },
          kFloat32),
      {{"pdist_backward", "_pdist_backward"}});
  // _cdist_backward(grad, x1 [B, N1, D], x2 [B, N1 / 2 + 1, D], 2, cdist), FlagGems' key.
  add(matrix(
          "cdist_backward",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const int64_t n2 = d[1] / 2 + 1;
            at::Tensor x1 = ops::random(c, d), x2 = ops::random(c, {d[0], n2, d[2]});
            a.t = {ops::random(c, {d[0], d[1], n2}), x1, x2, at::cdist(x1, x2, 2.0)};
            a.f = {2.0};
          },
          kFloat32),
      {{"cdist_backward", "_cdist_backward"}});
  out.back().more_shapes({{2, 16, 32}, {4, 32, 64}, {8, 64, 128}, {16, 128, 256}});
  // pairwise_distance(x1, x2, p = 2): the ATen case of FlagGems' six p values.
  add(
      [](const std::string& name) {
        return matrix("GenericBenchmark2DOnly", ops::tensors(2), kFloatDTypes)(name).more_shapes(
            {{1, 65536}, {8, 65536}, {64, 65536}, {1, 10000000}});
      },
      {{"pairwise_distance", "pairwise_distance", kBase, {{"p", 2.0}}}});
  // linalg_cross(a, b, dim): FlagGems' cases as (a dims..., b dims..., dim), a and b of one rank.
  add(matrix(
          "LinalgCrossBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const auto rank = static_cast<std::ptrdiff_t>((d.size() - 1) / 2);
            a.t = {ops::random(c, std::vector<int64_t>(d.begin(), d.begin() + rank)),
                   ops::random(c, std::vector<int64_t>(d.begin() + rank, d.begin() + 2 * rank))};
            a.i = {d.back()};
          },
          kFloatDTypes),
      {{"linalg_cross", "linalg_cross", kBase | kOut}});
  // cholesky_solve(rhs, L): (*batch, N, nrhs), L the lower factor of B B^T + 0.1 I (FlagGems'
  // upper = False half of its cases).
  add(matrix(
          "CholeskySolveBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            const int64_t nrhs = d.back();
            d.pop_back();
            std::vector<int64_t> square = d;
            square.push_back(d.back());
            at::Tensor b = ops::random(c, square);
            at::Tensor spd = b.matmul(b.transpose(-2, -1)) + at::eye(d.back(), c.options()) * 0.1;
            d.push_back(nrhs);
            a.t = {ops::random(c, d), at::linalg_cholesky(spd)};
          },
          kFloat32And64),
      {{"cholesky_solve", "cholesky_solve", kBase | kOut}});
  // linalg_solve_triangular(A, B, upper = False): A unit lower-triangular plus 0.1 of a random
  // strictly lower part, B [N, K] (FlagGems' upper = False half).
  add(matrix(
          "SolveTriBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            at::Tensor l = ops::random(c, {d[0], d[0]}).tril(-1) * 0.1 + at::eye(d[0], c.options());
            a.t = {l, ops::random(c, {d[0], d[1]})};
          },
          kFloat32And64),
      {{"linalg_solve_triangular", "linalg_solve_triangular", kBase | kOut, {{"upper", false}}}});
  // linalg_matrix_norm(x, ord 1) on FlagGems' `linalg_matrix_norm` key (its first ord of
  // 1, -1, inf, -inf, 'fro'; the SVD ords only for its SVD shape tiers).
  add(
      [](const std::string& name) {
        return matrix(
                   "linalg_matrix_norm",
                   [](const BuildContext& c, Args& a) {
                     a.t = {ops::random(c, c.dims())};
                     a.i = {1};
                   },
                   kFloatDTypes)(name)
            .shape_desc("(*B), M, N");
      },
      {{"linalg_matrix_norm", "linalg_matrix_norm"}});
  // LU factorisations of randn matrices with pivoting, FlagGems' one shape list for the three
  // (key LuBenchmark); the out= forms write into tensors of the results' shapes and dtypes.
  enum class Lu { kFactor, kFactorEx, kFull };
  auto lu = [](Lu form, bool out) -> ops::Prototype {
    return [=](const std::string& name) {
      return matrix(
          "LuBenchmark",
          [=](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, d)};
            if (!out) return;
            const int64_t m = d[d.size() - 2], n = d.back(), k = std::min(m, n);
            std::vector<int64_t> batch(d.begin(), d.end() - 2);
            auto with = [&](std::vector<int64_t> tail) {
              auto s = batch;
              s.insert(s.end(), tail.begin(), tail.end());
              return s;
            };
            auto ints = c.options().dtype(at::kInt);
            if (form == Lu::kFull) {
              a.t.push_back(at::empty(with({m, m}), c.options()));
              a.t.push_back(at::empty(with({m, k}), c.options()));
              a.t.push_back(at::empty(with({k, n}), c.options()));
              return;
            }
            a.t.push_back(at::empty(d, c.options()));
            a.t.push_back(at::empty(with({k}), ints));
            if (form == Lu::kFactorEx) a.t.push_back(at::empty(batch, ints));
          },
          kFloat32And64)(name);
    };
  };
  add(lu(Lu::kFactor, false), {{"linalg_lu_factor", "linalg_lu_factor"}});
  add(lu(Lu::kFactor, true), {{"linalg_lu_factor_out", "linalg_lu_factor.out"}});
  add(lu(Lu::kFactorEx, false), {{"linalg_lu_factor_ex", "linalg_lu_factor_ex"}});
  add(lu(Lu::kFactorEx, true), {{"linalg_lu_factor_ex_out", "linalg_lu_factor_ex.out"}});
  add(lu(Lu::kFull, false), {{"linalg_lu", "linalg_lu"}});
  add(lu(Lu::kFull, true), {{"linalg_lu_out", "linalg_lu.out"}});
  // bilinear(x1 [M, in1], x2 [M, in2], W [out, in1, in2], b [out]): FlagGems' (M, in1, in2, out).
  add(matrix(
          "BilinearBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[1]}), ops::random(c, {d[0], d[2]}),
                   ops::random(c, {d[3], d[1], d[2]}), ops::random(c, {d[3]})};
          },
          kFloatDTypes),
      {{"bilinear", "bilinear"}});
  // einsum("ij,jk->ik", A [M, K], B [K, N]) on FlagGems' (B, M, N, K) list (its first case).
  add(matrix(
          "EinsumBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[1], d[3]}), ops::random(c, {d[3], d[2]})};
          },
          kFloatDTypes),
      {{"einsum", "einsum", kBase, {{"equation", "ij,jk->ik"}}}});
  // _cholesky_solve_helper(rhs [N, NRHS], L, upper False), L the factor of B B^T + N I.
  add(matrix("CholeskySolveHelperBenchmark",
             [](const BuildContext& c, Args& a) {
               auto d = c.dims();
               at::Tensor b = ops::random(c, {d[0], d[0]});
               at::Tensor spd = b.matmul(b.transpose(-2, -1)) +
                                at::eye(d[0], c.options()) * static_cast<double>(d[0]);
               a.t = {ops::random(c, {d[0], d[1]}), at::linalg_cholesky(spd)};
             },
             {DType::kFloat32}),
      {{"cholesky_solve_helper", "_cholesky_solve_helper", kBase, {{"upper", false}}}});
  out.back().shape_desc("N, NRHS");
  // linalg_eigvals(randn [N, N]), checked through the trace (sum_is_trace).
  add(
      [](const std::string& name) {
        return matrix("LinalgEigvalsBenchmark", ops::tensors(1), {DType::kFloat32})(name).check(
            sum_is_trace);
      },
      {{"linalg_eigvals", "linalg_eigvals"}});
  // Its composite calls _linalg_eigvals (inputs that need no grad), which FlagGems overrides.
  ops::also_reaches(out, "linalg_eigvals", "aten::_linalg_eigvals");
  // linalg_householder_product(geqrf(randn [M, N])): the reflectors and their tau.
  add(matrix("LinalgHouseholderProductBenchmark",
             [](const BuildContext& c, Args& a) {
               auto [h, tau] = at::geqrf(ops::random(c, c.dims()));
               a.t = {h, tau};
             },
             {DType::kFloat32}),
      {{"linalg_householder_product", "linalg_householder_product"}});
  // linalg_ldl_factor(A A^T + N I); linalg_ldl_factor_ex(A A^T + 0.1 I), FlagGems' two inputs.
  add(matrix(
          "LdlFactorBenchmark",
          [](const BuildContext& c, Args& a) {
            a.t = {positive_definite(c, static_cast<double>(c.dims().back()))};
          },
          kFloat32And64),
      {{"linalg_ldl_factor", "linalg_ldl_factor"}});
  add(matrix("LinalgLdlFactorExBenchmark",
             [](const BuildContext& c, Args& a) { a.t = {positive_definite(c, 0.1)}; },
             {DType::kFloat32}),
      {{"linalg_ldl_factor_ex", "linalg_ldl_factor_ex"}});
  // linalg_ldl_solve(LD, pivots, B [N, K]) of ldl_factor_ex(A A^T + N I): FlagGems' (N, K).
  add(matrix(
          "LinalgLdlSolveBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            auto [ld, pivots, info] = at::linalg_ldl_factor_ex(
                positive_definite(c, {d[0], d[0]}, static_cast<double>(d[0])));
            a.t = {ld, pivots, ops::random(c, {d[0], d[1]})};
          },
          kFloat32And64),
      {{"linalg_ldl_solve", "linalg_ldl_solve"}});
  out.back().shape_desc("N, K");
  // linalg_lstsq(A, b of A's shape less its last dim, driver "gels").
  add(matrix(
          "LstsqBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            a.t = {ops::random(c, d), ops::random(c, std::vector<int64_t>(d.begin(), d.end() - 1))};
          },
          kFloat32And64),
      {{"linalg_lstsq", "linalg_lstsq", kBase, {{"driver", "gels"}}}});
  // SVDs of randn matrices: U is checked for orthonormal columns (orthonormal_columns).
  auto svd = [](const char* key) -> ops::Prototype {
    return [=](const std::string& name) {
      return matrix(key, ops::tensors(1), {DType::kFloat32})(name)
          .shape_desc("(*B), M, N")
          .check(orthonormal_columns);
    };
  };
  add(svd("LinalgSvdBenchmark"), {{"linalg_svd", "linalg_svd"}});
  add(svd("svd"), {{"svd", "svd", kBase, {{"some", true}, {"compute_uv", true}}}});
  // lu_unpack(linalg_lu_factor(randn [M, N])) on GenericBenchmark2DOnly's shapes.
  add(matrix(
          "GenericBenchmark2DOnly",
          [](const BuildContext& c, Args& a) {
            auto [lu, pivots] = at::linalg_lu_factor(ops::random(c, c.dims()));
            a.t = {lu, pivots};
          },
          kFloat32And64),
      {{"lu_unpack", "lu_unpack"}});
  // ormqr(geqrf(randn [M, min(M, N)]), other [M, N]): FlagGems' OrmqrBenchmark (M, N).
  add(matrix(
          "OrmqrBenchmark",
          [](const BuildContext& c, Args& a) {
            auto d = c.dims();
            auto [h, tau] = at::geqrf(ops::random(c, {d[0], std::min(d[0], d[1])}));
            a.t = {h, tau, ops::random(c, d)};
          },
          kFloat32And64),
      {{"ormqr", "ormqr"}});
  return out;
}

}  // namespace caliber
