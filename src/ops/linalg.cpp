// linalg_* and friends by their ATen operators, on the matrices FlagGems' linalg benchmark
// classes list in code (keyed by class in shapes/core.yaml), built as their input code builds
// them (cholesky's B B^T + 0.1 I, cholesky_inverse's factor of B B^T + n I).
#include <ATen/TensorOperators.h>
#include <ATen/ops/cdist.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/linalg_cholesky.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/pdist.h>

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
at::Tensor positive_definite(const BuildContext& c, double shift) {
  auto d = c.dims();
  at::Tensor b = ops::random(c, d);
  return b.matmul(b.transpose(-2, -1)) + at::eye(d.back(), c.options()) * shift;
}

}  // namespace

std::vector<OpDef> linalg_ops() {
  std::vector<OpDef> out;
  auto add = [&out](const ops::Prototype& proto, const std::vector<ops::Row>& rows) {
    for (auto& op : ops::derive_all(proto, rows)) out.push_back(std::move(op));
  };
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
  return out;
}

}  // namespace caliber
