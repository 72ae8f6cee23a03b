// The generic device API on a real out-of-tree backend: torch-opencl on POCL (installed by
// scripts/setup.sh; skipped where it is missing unless CALIBER_REQUIRE_OPENCL=1).

#include "engine/device/generic/generic_device_api.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/ones.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "backend/registry.h"
#include "core/error.h"
#include "engine/device/generic/accelerator_probe.h"
#include "engine/device/generic/backend_loader.h"
#include "engine/device/generic/device_api_plan.h"
#include "engine/device/generic/torch_device_enumerator.h"
#include "timing/measure.h"

namespace caliber {
namespace {

using ::testing::HasSubstr;

class GenericDeviceApiOnOpencl : public ::testing::Test {
 protected:
  void SetUp() override {
    install_torch_device_enumerator();  // as caliber's main does
    try {
      load_backend(opencl(), "");
    } catch (const Error& e) {
      const char* required = std::getenv("CALIBER_REQUIRE_OPENCL");
      if (required != nullptr && std::string(required) == "1") FAIL() << e.what();
      GTEST_SKIP() << e.what();
    }
  }
  static const BackendDescriptor& opencl() { return find_backend("--backend", "opencl"); }
};

TEST_F(GenericDeviceApiOnOpencl, ProbeExercisesTheRuntimeRatherThanAssumingIt) {
  const AcceleratorFeatures& f = probe_accelerator(opencl(), 0);
  EXPECT_EQ(f.torch_device_type, "opencl");
  EXPECT_GE(f.device_count, 1);
  EXPECT_FALSE(f.events);
  EXPECT_THAT(f.events_detail, HasSubstr("events"));
  EXPECT_FALSE(f.graph);
  EXPECT_THAT(f.graph_detail, HasSubstr("torch.opencl has no graph class"));
  EXPECT_TRUE(f.fill);
  // torch-opencl reports no cache size: the documented default flush.
  EXPECT_EQ(f.l2_cache_bytes, 0u);
  EXPECT_EQ(f.flush_bytes, kDefaultFlushBytes);
  Capabilities caps = f.capabilities();
  EXPECT_FALSE(caps.device_events || caps.graph_capture || caps.blocking_kernel_batch);
  EXPECT_TRUE(caps.l2_flush);
}

TEST_F(GenericDeviceApiOnOpencl, MeasuresARealOpWithTheHostTimerAndRefusesTheOthers) {
  DeviceApiPlan runtime = resolve_device_api_plan(opencl(), DeviceApiKind::kAuto, "", 0);
  ASSERT_TRUE(runtime.generic);
  TimerPlan plan = plan_device_timers(runtime, opencl(), Timer::kAuto, true);
  EXPECT_EQ(plan.primary, Timer::kHost);
  auto api = make_generic_device_api(opencl(), 0);
  EXPECT_THAT(api->name(), HasSubstr("opencl:0"));
  // No events: time_each (warmups only) is timed from the host, and says so.
  EXPECT_FALSE(api->has_device_events());
  EXPECT_EQ(api->time_each([] {}, 3, {}).size(), 3u);
  EXPECT_THROW(api->capture([] {}, 1), DeviceError);
  EXPECT_THROW(api->time_batch([] {}, 1, 1.0, {}), DeviceError);
  // Every flush method runs on the runtime's own ops (fill_, then a max reduction to read).
  for (FlushMethod method : {FlushMethod::kWrite, FlushMethod::kRead, FlushMethod::kWriteRead}) {
    EXPECT_NO_THROW(api->flush_cache(1 << 20, method)) << to_string(method);
  }
  EXPECT_THROW(api->kernel_activities_each([] {}, 1, {}), DeviceError);
  EXPECT_TRUE(api->healthy());

  auto on = at::TensorOptions().device("opencl:0");
  at::Tensor a = at::ones({64, 64}, on);
  at::Tensor b = at::ones({64, 64}, on);
  MeasureOptions options;
  options.op = "add";
  options.sampling.warmup_ms = 1;
  options.sampling.rep_ms = 3;
  Measurement m = measure(*api, plan, options, [&] { at::add(a, b); });
  EXPECT_EQ(m.timer_used, Timer::kHost);
  EXPECT_GT(m.latency_ms, 0);
}

TEST_F(GenericDeviceApiOnOpencl, RequestingATimerTheRuntimeLacksSaysWhatItNeeds) {
  DeviceApiPlan runtime = resolve_device_api_plan(opencl(), DeviceApiKind::kGeneric, "", 0);
  for (auto [timer, needs] :
       {std::pair{Timer::kDirect, "device events"}, std::pair{Timer::kGraph, "graph API"},
        std::pair{Timer::kBatch, "blocking kernel"},
        std::pair{Timer::kKernel, "activity tracing"}}) {
    try {
      plan_device_timers(runtime, opencl(), timer, true);
      ADD_FAILURE() << to_string(timer) << " was not refused";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      EXPECT_THAT(e.what(), HasSubstr(needs));
      EXPECT_THAT(e.what(), HasSubstr("(available: auto, host)"));
    }
  }
}

}  // namespace
}  // namespace caliber
