#include "engine/device/device_api_factory.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/ones.h>
#include <gtest/gtest.h>

#include "backend/registry.h"
#include "backend/timer_plan.h"
#include "core/error.h"
#include "timing/measure.h"

namespace caliber {
namespace {

TEST(DeviceApiFactory, CpuBackendGetsTheHostDevice) {
  auto api = make_device_api(find_backend("--backend", "cpu"), 0);
  EXPECT_EQ(api->name(), "host");
  EXPECT_FALSE(api->sm_clock_mhz().has_value());
  EXPECT_EQ(api->rng_guard(), nullptr);
}

TEST(DeviceApiFactory, BackendWithoutGlueGoesGenericAndNamesTheMissingPackage) {
  // Ascend has no native glue: the generic path loads torch_npu, which CI machines lack.
  EXPECT_FALSE(has_native_device_api(find_backend("--backend", "ascend")));
  EXPECT_TRUE(has_native_device_api(find_backend("--backend", "cpu")));
  try {
    make_device_api(find_backend("--backend", "ascend"), 0);
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("backend ascend"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'torch_npu'"), std::string::npos) << e.what();
  }
}

TEST(HostDeviceApi, MeasuresARealAtenOpWithTheHostTimer) {
  const BackendDescriptor& cpu = find_backend("--backend", "cpu");
  auto api = make_device_api(cpu, 0);
  TimerPlan plan = derive_timer_plan(cpu.capabilities, Timer::kAuto, true, cpu.name);
  MeasureOptions options;
  options.op = "add";
  options.sampling.warmup_ms = 1;
  options.sampling.rep_ms = 5;
  at::Tensor a = at::ones({256, 256});
  at::Tensor b = at::ones({256, 256});
  int calls = 0;
  Measurement m = measure(*api, plan, options, [&] {
    at::add(a, b);
    ++calls;
  });
  EXPECT_EQ(m.timer_used, Timer::kHost);
  EXPECT_GT(m.latency_ms, 0);
  EXPECT_EQ(calls, m.warmup_calls + static_cast<int>(m.samples_ms.size()));
}

TEST(HostDeviceApi, RefusesDeviceOnlyTimersWithDeviceErrors) {
  auto api = make_device_api(find_backend("--backend", "cpu"), 0);
  EXPECT_THROW(api->capture([] {}, 1), DeviceError);
  EXPECT_THROW(api->time_batch([] {}, 1, 1.0, {}), DeviceError);
  EXPECT_THROW(api->kernel_activities_each([] {}, 1, {}), DeviceError);
}

}  // namespace
}  // namespace caliber
