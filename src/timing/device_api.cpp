#include "timing/device_api.h"

namespace caliber {

std::vector<double> DeviceApi::time_host(const Call& call, int calls, const Call& before_each) {
  std::vector<double> samples;
  samples.reserve(calls);
  for (int i = 0; i < calls; ++i) {
    if (before_each) {
      before_each();
      synchronize();
    }
    double start = host_now_ms();
    call();
    synchronize();
    samples.push_back(host_now_ms() - start);
  }
  return samples;
}

}  // namespace caliber
