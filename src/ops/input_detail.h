#pragma once

#include <ATen/core/Tensor.h>

#include <string>

#include "core/dtype.h"
#include "core/shape.h"
#include "core/size_detail.h"
#include "ops/args.h"
#include "ops/op_def.h"

namespace caliber {

// A tensor as FlagGems' record_shapes() keeps it: its torch.Size (None when undefined).
PyValue size_of(const at::Tensor& t);
// A dtype as Python prints it: torch.float16.
PyValue torch_dtype(at::ScalarType type);
// A creation op's keywords as FlagGems' input_fn passes them (test_rand.py):
// {'size': [...], 'dtype': torch.float16, 'device': 'cuda'}, the device being the case's device
// type as torch names it.
SizeDetail creation_kwargs(const std::vector<int64_t>& size, const at::TensorOptions& options);
// The inputs without an op's own DetailFn: tensors, integers, floats, integer lists, in that
// order.
SizeDetail default_size_detail(const Args& a);
// The op's DetailFn where it has one, else the default.
SizeDetail size_detail_of(const OpDef& op, const Args& a);

// Builds the op's inputs for one case on `device` without calling the op, and prints them as
// FlagGems' "Size Detail". With device "meta" no memory is touched, so any case of any size
// renders on the host; a builder that needs data (a value read back) throws there.
std::string case_size_detail(const OpDef& op, const ShapeCase& shape, DType dtype,
                             const std::string& device);

}  // namespace caliber
