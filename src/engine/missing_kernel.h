#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace caliber {

// An op the backend lacks: torch's dispatcher found no kernel for one of the operators the call
// reached ("Could not run 'aten::mm.out' with arguments from the 'opencl' backend"). A backend
// with a partial kernel set (an out-of-tree device early in its port) reports such rows as
// missing on the backend, not as failures of the harness or the op.
struct MissingKernel {
  std::string op;       // aten::mm.out
  std::string backend;  // opencl
};

std::optional<MissingKernel> missing_kernel(std::string_view error);

// The row marker (NOT_IMPLEMENTED[aten::mm.out]) and the row's error text.
std::string not_implemented_marker(const MissingKernel& missing);
std::string not_implemented_text(const MissingKernel& missing);

}  // namespace caliber
