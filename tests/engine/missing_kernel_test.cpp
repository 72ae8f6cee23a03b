#include "engine/missing_kernel.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(MissingKernel, ReadsTheOperatorAndBackendFromTheDispatchersWording) {
  auto missing = missing_kernel(
      "Could not run 'aten::mm.out' with arguments from the 'opencl' backend. This could be "
      "because the operator doesn't exist for this backend, or was omitted during the "
      "selective/custom build process (if using custom build).");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->op, "aten::mm.out");
  EXPECT_EQ(missing->backend, "opencl");
  EXPECT_EQ(not_implemented_marker(*missing), "NOT_IMPLEMENTED[aten::mm.out]");
  EXPECT_EQ(not_implemented_text(*missing),
            "not implemented on the opencl backend: torch has no aten::mm.out kernel for it");
}

TEST(MissingKernel, OtherFailuresAreNotMissingKernels) {
  EXPECT_FALSE(missing_kernel("CUDA error: an illegal memory access was encountered"));
  EXPECT_FALSE(missing_kernel("\"addmm_cuda\" not implemented for 'Bool'"));
  EXPECT_FALSE(missing_kernel("Could not run 'aten::mm.out' with"));  // truncated: no backend
}

}  // namespace
}  // namespace caliber
