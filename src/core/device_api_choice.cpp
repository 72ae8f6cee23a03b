#include "core/device_api_choice.h"

namespace caliber {

const Choice<DeviceApiKind>& device_api_choice() {
  static const Choice<DeviceApiKind> c{{"auto", DeviceApiKind::kAuto},
                                       {"native", DeviceApiKind::kNative},
                                       {"generic", DeviceApiKind::kGeneric}};
  return c;
}

}  // namespace caliber
