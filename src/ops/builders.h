#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

#include "core/shape.h"
#include "ops/args.h"
#include "ops/op_def.h"

// Input builders, byte and FLOP models, and extra shapes shared by the families.
namespace caliber::ops {

// Value ranges an op's inputs need to stay in its domain (log, acos, acosh, shifts...).
enum class Domain { kNormal, kPositive, kUnit, kAboveOne, kSmallInt };

// Random data of the case's dtype (or `type`), never all zeros: floats ~ N(0, 1) or the
// domain's range, integers in [-100, 100] without 0, bools half true.
at::Tensor random(const BuildContext& c, at::IntArrayRef sizes, Domain domain = Domain::kNormal);
at::Tensor random_as(const BuildContext& c, at::IntArrayRef sizes, at::ScalarType type,
                     Domain domain = Domain::kNormal);
// int64 indices in [0, high).
at::Tensor indices(const BuildContext& c, at::IntArrayRef sizes, int64_t high);

// `count` random tensors of the case's shape.
BuildFn tensors(int count, Domain domain = Domain::kNormal);
// One tensor and the dim FlagGems' reductions use: 1 when the shape has more than one dim.
BuildFn tensor_and_dim(Domain domain = Domain::kNormal);
// One tensor and its last dim.
BuildFn tensor_and_last_dim();

// One FLOP per output element (FlagGems' pointwise TFLOPS).
double output_numel(const Args& a, const at::Tensor& out);
// One FLOP per element of the first input (reductions, scans).
double input_numel(const Args& a, const at::Tensor& out);

// FlagGems' set_more_shapes() per benchmark class: what level=comprehensive adds.
// BLAS: the large-K tuples, then the model shapes (batch sizes 1..8192 x the Llama3-8B and
// Qwen2.5-7B (N, K) pairs, B = 4).
std::vector<Shape> blas_more_shapes();
std::vector<Shape> unary_more_shapes();
std::vector<Shape> binary_more_shapes();
std::vector<Shape> reduction_more_shapes();
std::vector<Shape> generic_more_shapes();
std::vector<Shape> generic_more_shapes_2d();
std::vector<Shape> generic_more_shapes_no_1d();

std::vector<DType> concat(std::vector<DType> a, const std::vector<DType>& b);
// Unions of FlagGems' dtype groups. Functions, not namespace-scope constants: the groups are
// defined in another translation unit, in an order static initialisation does not promise.
std::vector<DType> float_and_int();
std::vector<DType> float_and_bool();
std::vector<DType> int_and_bool();

}  // namespace caliber::ops
