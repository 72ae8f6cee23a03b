#include <c10/util/Exception.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/device/generic/device_type.h"

namespace caliber {
namespace {

TEST(RuntimeStep, ReturnsWhatTheStepReturns) {
  EXPECT_EQ(runtime_step("synchronize", [] { return 7; }), 7);
}

TEST(RuntimeStep, ARuntimeErrorBecomesADeviceErrorOfThePhaseWithItsFirstLine) {
  try {
    runtime_step("flush", []() -> int {
      TORCH_CHECK(false, "queue lost\nsecond line of the runtime's message");
      return 0;
    });
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_EQ(e.phase(), "flush");
    EXPECT_EQ(std::string(e.what()), "queue lost");
  }
}

TEST(RuntimeStep, TheOpsOwnFailurePassesUnchanged) {
  EXPECT_THROW(runtime_step("events", [] { throw std::invalid_argument("bad shape"); }),
               std::invalid_argument);
}

}  // namespace
}  // namespace caliber
