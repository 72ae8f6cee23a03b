#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>

#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace caliber {

// Everything an input builder may look at for one case.
struct BuildContext {
  std::string op;
  ShapeCase shape_case;
  DType dtype = DType::kFloat32;
  c10::Device device = c10::Device(c10::kCPU);
  std::string state_dir;  // where an op may keep state across processes (selftest_flaky)

  at::ScalarType scalar_type() const;
  at::TensorOptions options() const;  // dtype and device of the case
  std::vector<int64_t> dims() const;  // the shape's integers (usage error when nested)
};

// The inputs of one case: tensors, integer and floating parameters, integer lists. A call
// reads them by position; their order is the order FlagGems prints in "Size Detail".
struct Args {
  at::TensorOptions options;  // the case's dtype and device, for ops that create tensors
  std::vector<at::Tensor> t;
  std::vector<int64_t> i;
  std::vector<double> f;
  std::vector<std::vector<int64_t>> lists;
  std::string state_dir;  // BuildContext::state_dir, for ops that keep state across processes
};

at::ScalarType to_scalar_type(DType dtype);

}  // namespace caliber
