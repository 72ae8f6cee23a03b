#include "timing/device_api.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_device_api.h"

namespace caliber {
namespace {

// A device whose clock moves only with the work queued on it, which synchronize() waits for:
// what the host wall clock sees of a runtime that launches asynchronously.
class AsyncClockDevice : public testing::FakeDeviceApi {
 public:
  double now = 0;
  double queued_ms = 0;  // launched, not yet waited for
  std::vector<std::string> events;

  void synchronize() override {
    now += queued_ms;
    queued_ms = 0;
    events.push_back("sync");
  }
  double host_now_ms() const override { return now; }
};

TEST(DeviceApiTimeHost, TimesEachCallUpToItsSynchronizeAndNotWhatRanBeforeIt) {
  AsyncClockDevice device;
  Call call = [&] {
    device.queued_ms += 2.0;
    device.events.push_back("call");
  };
  Call before_each = [&] {
    device.queued_ms += 5.0;  // a cache flush still on the device when the call is launched
    device.events.push_back("flush");
  };
  std::vector<double> samples = device.DeviceApi::time_host(call, 3, before_each);
  EXPECT_EQ(samples, (std::vector<double>{2.0, 2.0, 2.0}));
  EXPECT_EQ(device.events,
            (std::vector<std::string>{"flush", "sync", "call", "sync", "flush", "sync", "call",
                                      "sync", "flush", "sync", "call", "sync"}));
  EXPECT_DOUBLE_EQ(device.now, 21.0);
}

TEST(DeviceApiTimeHost, WithoutBeforeEachSynchronizesOnlyAfterEachCall) {
  AsyncClockDevice device;
  int calls = 0;
  std::vector<double> samples = device.DeviceApi::time_host(
      [&] {
        device.queued_ms += ++calls;
        device.events.push_back("call");
      },
      2, {});
  EXPECT_EQ(samples, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(device.events, (std::vector<std::string>{"call", "sync", "call", "sync"}));
}

}  // namespace
}  // namespace caliber
