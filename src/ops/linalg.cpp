// linalg_* and friends by their ATen operators, on the matrices FlagGems' linalg benchmark
// classes list in code (keyed by class in shapes/core.yaml), built as their input code builds
// them (cholesky's B B^T + 0.1 I, cholesky_inverse's factor of B B^T + n I).
#include <ATen/TensorOperators.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/linalg_cholesky.h>

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
  return out;
}

}  // namespace caliber
