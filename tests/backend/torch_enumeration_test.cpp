#include "backend/torch_enumeration.h"

#include <gtest/gtest.h>

#include "backend/registry.h"

namespace caliber {
namespace {

TEST(TorchEnumeration, NoDevicesUntilAnEnumeratorIsInstalled) {
  set_torch_enumerator(nullptr);
  EXPECT_TRUE(enumerate_through_torch("opencl").empty());
}

TEST(TorchEnumeration, TheInstalledEnumeratorIsAskedByBackendName) {
  std::string asked;
  set_torch_enumerator([&asked](const std::string& name) {
    asked = name;
    DeviceInfo info;
    info.name = "scripted device";
    return std::vector<DeviceInfo>{info};
  });
  auto devices = enumerate_through_torch("privateuse1");
  set_torch_enumerator(nullptr);
  EXPECT_EQ(asked, "privateuse1");
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "scripted device");
}

TEST(TorchEnumeration, TorchEnumeratedBackendsAreNeverChosenAutomatically) {
  // Even with an enumerator that reports a device, automatic selection does not import a
  // backend's package to count its devices.
  set_torch_enumerator([](const std::string&) { return std::vector<DeviceInfo>{DeviceInfo{}}; });
  const std::string chosen = select_backend("", "--backend").name;
  set_torch_enumerator(nullptr);
  EXPECT_NE(chosen, "opencl");
  EXPECT_NE(chosen, "privateuse1");
}

}  // namespace
}  // namespace caliber
