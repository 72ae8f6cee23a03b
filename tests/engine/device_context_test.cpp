#include "engine/device/device_context.h"

#include <gtest/gtest.h>

#include "backend/registry.h"
#include "core/error.h"
#include "engine/device/device_driver.h"

namespace caliber {
namespace {

TEST(DeviceContext, OwnsTheHostDeviceForTheCpuBackend) {
  const BackendDescriptor& cpu = find_backend("--backend", "cpu");
  DeviceContext device(cpu, 0, DeviceInfo{});
  EXPECT_EQ(&device.backend(), &cpu);
  EXPECT_EQ(device.torch_device(), "cpu");
  EXPECT_EQ(device.api().name(), "host");
  EXPECT_EQ(device.peak_memory_bytes(), 0);
  EXPECT_EQ(device.memory_in_use().reserved_bytes, 0);
  EXPECT_EQ(device.peaks(), nullptr);
}

TEST(DeviceContext, AProcessOpensEachDeviceOnceAndKeepsIt) {
  const BackendDescriptor& cpu = find_backend("--backend", "cpu");
  DeviceInfo host;
  host.name = "host for the shared-context test";
  DeviceContext& first = shared_device_context(cpu, 0, host);
  DeviceContext& again = shared_device_context(cpu, 0, host);
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(&first.api(), &again.api());
  EXPECT_EQ(first.info().name, host.name);
  DeviceInfo other = host;
  other.name = "another device's info";
  EXPECT_NE(&shared_device_context(cpu, 0, other), &first);
}

TEST(DeviceContext, TorchDeviceNamesTheIndexOfAnAccelerator) {
  EXPECT_EQ(torch_device_of(find_backend("--backend", "cpu"), 3), "cpu");
  EXPECT_EQ(torch_device_of(find_backend("--backend", "cuda"), 3), "cuda:3");
}

TEST(DeviceDrivers, TheHostDriverIsAlwaysThere) {
  ASSERT_FALSE(device_drivers().empty());
  EXPECT_EQ(device_drivers().front().backend, "cpu");
  EXPECT_NE(find_device_driver("cpu"), nullptr);
  EXPECT_EQ(find_device_driver("ascend"), nullptr);
  EXPECT_EQ(device_runtime_version(find_backend("--backend", "cpu")), "");
}

TEST(DeviceDrivers, TheGenericDriverTakesAcceleratorsWithoutGlueAndWhenAsked) {
  const DeviceDriver* ascend = driver_for(find_backend("--backend", "ascend"), false);
  ASSERT_NE(ascend, nullptr);
  EXPECT_TRUE(ascend->any_accelerator);
  EXPECT_FALSE(ascend->gemm_tuner);
  // The host is never driven generically; a backend with glue is, only when asked.
  EXPECT_FALSE(driver_for(find_backend("--backend", "cpu"), true)->any_accelerator);
  EXPECT_TRUE(driver_for(find_backend("--backend", "cuda"), true)->any_accelerator);
}

TEST(GemmTunerCheck, ABackendWithoutTunerRefusesRecordAndReplayButNotOff) {
  const BackendDescriptor& cpu = find_backend("--backend", "cpu");
  EXPECT_NO_THROW(check_gemm_tuner(TunerMode::kOff, "", cpu));
  for (TunerMode mode : {TunerMode::kRecord, TunerMode::kReplay}) {
    try {
      check_gemm_tuner(mode, "tunableop_results.csv", cpu);
      FAIL() << "expected a usage error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find("--tuner"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace caliber
