#include "ops/builders.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/where.h>

namespace caliber::ops {
namespace {

std::vector<Shape> pow2_shapes(std::vector<int64_t> prefix, std::vector<int64_t> suffix,
                               std::vector<int> exponents) {
  std::vector<Shape> out;
  for (int e : exponents) {
    std::vector<int64_t> dims = prefix;
    dims.push_back(int64_t{1} << e);
    dims.insert(dims.end(), suffix.begin(), suffix.end());
    out.push_back(Shape::of(dims));
  }
  return out;
}

std::vector<Shape> join(std::vector<Shape> a, const std::vector<Shape>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

namespace {

// Draws on the device; a device whose backend has no random kernels (an out-of-tree backend
// early in its port) gets the same distribution drawn on the host and copied over, so that the
// ops it does implement can still be measured.
template <typename Draw>
at::Tensor drawn_on(const BuildContext& c, Draw&& draw) {
  auto on = at::TensorOptions().device(c.device);
  try {
    return draw(on);
  } catch (const c10::NotImplementedError&) {
    if (on.device().is_cpu()) throw;
    return draw(at::TensorOptions().device(at::kCPU)).to(on.device());
  }
}

at::Tensor random_on(at::TensorOptions on, at::IntArrayRef sizes, at::ScalarType type,
                     Domain domain) {
  if (type == at::kBool) return at::randint(0, 2, sizes, on.dtype(at::kLong)).to(at::kBool);
  if (at::isIntegralType(type, /*includeBool=*/false)) {
    if (domain == Domain::kSmallInt) return at::randint(0, 8, sizes, on.dtype(type));
    const bool is_unsigned = type == at::kByte;
    if (domain == Domain::kPositive || is_unsigned) {
      return at::randint(1, 101, sizes, on.dtype(type));
    }
    at::Tensor magnitude = at::randint(1, 101, sizes, on.dtype(type));
    at::Tensor sign = at::randint(0, 2, sizes, on.dtype(type)) * 2 - 1;
    return magnitude * sign;
  }
  const bool wide = at::isComplexType(type) || type == at::kHalf || type == at::kBFloat16 ||
                    type == at::kFloat || type == at::kDouble;
  at::ScalarType draw = wide ? type : at::kFloat;  // fp8 has no generator: draw float, round
  at::Tensor t;
  switch (domain) {
    case Domain::kPositive:
      t = at::rand(sizes, on.dtype(draw)) + 0.5;
      break;
    case Domain::kUnit:
      t = at::rand(sizes, on.dtype(draw)) * 1.8 - 0.9;
      break;
    case Domain::kAboveOne:
      t = at::rand(sizes, on.dtype(draw)) + 1.1;
      break;
    case Domain::kSmallInt:
      t = at::randint(0, 8, sizes, on.dtype(draw));
      break;
    case Domain::kNormal:
      t = at::randn(sizes, on.dtype(draw));
      break;
  }
  return draw == type ? t : t.to(type);
}

}  // namespace

at::Tensor random_as(const BuildContext& c, at::IntArrayRef sizes, at::ScalarType type,
                     Domain domain) {
  return drawn_on(c, [&](at::TensorOptions on) { return random_on(on, sizes, type, domain); });
}

at::Tensor random(const BuildContext& c, at::IntArrayRef sizes, Domain domain) {
  return random_as(c, sizes, c.scalar_type(), domain);
}

at::Tensor indices(const BuildContext& c, at::IntArrayRef sizes, int64_t high) {
  return drawn_on(c, [&](at::TensorOptions on) {
    return at::randint(0, std::max<int64_t>(high, 1), sizes, on.dtype(at::kLong));
  });
}

BuildFn tensors(int count, Domain domain) {
  return [count, domain](const BuildContext& c, Args& a) {
    for (int k = 0; k < count; ++k) a.t.push_back(random(c, c.dims(), domain));
  };
}

BuildFn tensor_and_dim(Domain domain) {
  return [domain](const BuildContext& c, Args& a) {
    auto dims = c.dims();
    a.t.push_back(random(c, dims, domain));
    a.i.push_back(dims.size() > 1 ? 1 : 0);
  };
}

BuildFn tensor_and_last_dim() {
  return [](const BuildContext& c, Args& a) {
    auto dims = c.dims();
    a.t.push_back(random(c, dims));
    a.i.push_back(static_cast<int64_t>(dims.size()) - 1);
  };
}

double output_numel(const Args&, const at::Tensor& out) {
  return out.defined() ? static_cast<double>(out.numel()) : 0.0;
}

double input_numel(const Args& a, const at::Tensor&) {
  return a.t.empty() ? 0.0 : static_cast<double>(a.t[0].numel());
}

std::vector<Shape> blas_more_shapes() {
  std::vector<Shape> out = {{8, 1848, 1536, 151936},
                            {8, 1848, 1536, 128256},
                            {8, 1848, 1536, 152064},
                            {8, 4096, 1, 152064}};
  const int64_t batch_sizes[] = {1, 2, 3, 4, 8, 98, 256, 8192};
  const std::pair<int64_t, int64_t> nk[] = {// Llama3-8B: attention wqkv/wo, FFN w13/w2, lm head
                                            {1024, 4096},
                                            {128256, 4096},
                                            {14336, 4096},
                                            {4096, 14336},
                                            {4096, 4096},
                                            {6144, 4096},
                                            {28672, 4096},
                                            // Qwen2.5-7B
                                            {3584, 3584},
                                            {18944, 3584},
                                            {3584, 18944},
                                            {152064, 3584},
                                            {37888, 3584},
                                            {512, 3584},
                                            {4608, 3584}};
  for (int64_t bs : batch_sizes) {
    for (auto [n, k] : nk) out.push_back({4, bs, n, k});
  }
  return out;
}

std::vector<Shape> unary_more_shapes() {
  return join(pow2_shapes({1024}, {}, {0, 4, 8, 12, 16}), pow2_shapes({64, 64}, {}, {0, 4, 8, 12}));
}

std::vector<Shape> binary_more_shapes() {
  return join(pow2_shapes({1024}, {}, {0, 4, 8, 12, 16}),
              pow2_shapes({64, 64}, {}, {0, 4, 8, 12, 16}));
}

std::vector<Shape> reduction_more_shapes() {
  std::vector<Shape> out = {{1025 * 1024}, {1024 * 1024 * 1024}};
  out = join(out, pow2_shapes({1024}, {}, {0, 4, 8, 12, 16, 20}));
  return join(out, pow2_shapes({64}, {64}, {0, 4, 8, 12}));
}

std::vector<Shape> generic_more_shapes() {
  std::vector<Shape> out = {{int64_t{1} << 28}};
  out = join(out, pow2_shapes({10000}, {}, {0, 8, 16}));
  return join(out, pow2_shapes({100}, {100}, {0, 8, 16}));
}

std::vector<Shape> generic_more_shapes_2d() { return pow2_shapes({10000}, {}, {0, 8, 16}); }

std::vector<Shape> generic_more_shapes_no_1d() {
  return join(pow2_shapes({10000}, {}, {0, 8, 16}), pow2_shapes({100}, {100}, {0, 8, 16}));
}

std::vector<DType> concat(std::vector<DType> a, const std::vector<DType>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<DType> float_and_int() { return concat(kFloatDTypes, kIntDTypes); }
std::vector<DType> float_and_bool() { return concat(kFloatDTypes, kBoolDTypes); }
std::vector<DType> int_and_bool() { return concat(kIntDTypes, kBoolDTypes); }

}  // namespace caliber::ops
