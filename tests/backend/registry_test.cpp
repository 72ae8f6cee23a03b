#include "backend/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace caliber {
namespace {

using ::testing::HasSubstr;

TEST(Registry, HasTheVendorBackendsAndTheOutOfTreeOnes) {
  std::vector<std::string> names;
  for (const auto& b : all_backends()) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cuda", "rocm", "musa", "ascend", "cpu", "opencl",
                                             "privateuse1"}));
}

TEST(Registry, OutOfTreeBackendsNameThePackagePyTorchLoadsThemFrom) {
  EXPECT_EQ(find_backend("", "musa").python_module, "torch_musa");
  EXPECT_EQ(find_backend("", "ascend").python_module, "torch_npu");
  EXPECT_EQ(find_backend("", "opencl").python_module, "torch_opencl");
  EXPECT_EQ(find_backend("", "ocl").name, "opencl");
  EXPECT_EQ(find_backend("", "PrivateUseOne").name, "privateuse1");
  EXPECT_EQ(find_backend("", "privateuse1").torch_device_type, "privateuseone");
  EXPECT_TRUE(find_backend("", "cuda").python_module.empty());
  EXPECT_TRUE(find_backend("", "opencl").enumerated_by_torch);
  EXPECT_FALSE(find_backend("", "rocm").enumerated_by_torch);
}

TEST(Registry, ResolvesAliasesCaseInsensitively) {
  EXPECT_EQ(find_backend("--backend", "HIP").name, "rocm");
  EXPECT_EQ(find_backend("--backend", "amd").name, "rocm");
  EXPECT_EQ(find_backend("--backend", "MThreads").name, "musa");
  EXPECT_EQ(find_backend("--backend", "mt").name, "musa");
  EXPECT_EQ(find_backend("--backend", "NPU").name, "ascend");
  EXPECT_EQ(find_backend("--backend", "huawei").name, "ascend");
  EXPECT_EQ(find_backend("--backend", "Cuda").name, "cuda");
}

TEST(Registry, UnknownBackendNamesKnobAndAcceptedAliases) {
  try {
    find_backend("ZL_BACKEND", "bogus");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), HasSubstr("ZL_BACKEND"));
    EXPECT_THAT(e.what(), HasSubstr("'bogus'"));
    EXPECT_THAT(e.what(), HasSubstr("rocm (hip, amd)"));
    EXPECT_THAT(e.what(), HasSubstr("ascend (npu, huawei)"));
  }
}

TEST(Registry, VisibilityVariablePerBackend) {
  EXPECT_EQ(find_backend("", "cuda").visibility_variable, "CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(find_backend("", "rocm").visibility_variable, "HIP_VISIBLE_DEVICES");
  EXPECT_EQ(find_backend("", "musa").visibility_variable, "MUSA_VISIBLE_DEVICES");
  EXPECT_EQ(find_backend("", "ascend").visibility_variable, "ASCEND_RT_VISIBLE_DEVICES");
  EXPECT_EQ(find_backend("", "cpu").visibility_variable, "");
}

TEST(Registry, TorchDeviceTypePerBackend) {
  EXPECT_EQ(find_backend("", "cuda").torch_device_type, "cuda");
  EXPECT_EQ(find_backend("", "rocm").torch_device_type, "cuda");  // ROCm torch reuses "cuda"
  EXPECT_EQ(find_backend("", "ascend").torch_device_type, "npu");
  EXPECT_EQ(find_backend("", "cpu").torch_device_type, "cpu");
}

TEST(Registry, CapabilityFlags) {
  const Capabilities& cuda = find_backend("", "cuda").capabilities;
  EXPECT_TRUE(cuda.graph_capture && cuda.blocking_kernel_batch && cuda.kernel_activity &&
              cuda.l2_flush && cuda.default_rng_generators && cuda.clock_query);
  EXPECT_FALSE(find_backend("", "ascend").capabilities.default_rng_generators);
  const Capabilities& cpu = find_backend("", "cpu").capabilities;
  EXPECT_FALSE(cpu.device_events || cpu.graph_capture || cpu.l2_flush);
}

TEST(Registry, CpuAlwaysHasTheHost) {
  const auto& devices = devices_of(find_backend("", "cpu"));
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_GT(devices[0].total_memory_bytes, 0u);
  EXPECT_GT(devices[0].compute_units, 0);
}

TEST(DeviceGuard, RefusesABackendWithNoDeviceAndSaysWhatWasFound) {
  // No ROCm runtime exists on the machines this suite runs on.
  try {
    guard_device_present(find_backend("", "rocm"), 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), HasSubstr("no rocm device is present"));
    EXPECT_THAT(e.what(), HasSubstr("found:"));
  }
}

TEST(DeviceGuard, RefusesAnIndexBeyondTheVisibleDevices) {
  EXPECT_NO_THROW(guard_device_present(find_backend("", "cpu"), 0));
  EXPECT_THROW(guard_device_present(find_backend("", "cpu"), 3), Error);
}

TEST(Selection, ExplicitRequestWinsElseFirstWithDeviceElseCpu) {
  EXPECT_EQ(select_backend("npu", "--backend").name, "ascend");
  const std::string chosen = select_backend("", "--backend").name;
  bool any_accelerator = false;
  for (const auto& b : all_backends()) {
    if (b.name != "cpu" && !devices_of(b).empty()) {
      EXPECT_EQ(chosen, b.name);
      any_accelerator = true;
      break;
    }
  }
  if (!any_accelerator) {
    EXPECT_EQ(chosen, "cpu");
  }
}

}  // namespace
}  // namespace caliber
