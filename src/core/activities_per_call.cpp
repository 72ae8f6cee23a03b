#include "core/activities_per_call.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace caliber {

std::string to_text(const ActivitiesPerCall& a) {
  return fmt::format("kernels={} memsets={} memcpys={}{}", a.kernels, a.memsets, a.memcpys,
                     a.counts_vary ? " (varies)" : "");
}

nlohmann::json to_json(const ActivitiesPerCall& a) {
  return {{"kernels", a.kernels},     {"memsets", a.memsets},        {"memcpys", a.memcpys},
          {"kernel_us", a.kernel_us}, {"memset_us", a.memset_us},    {"memcpy_us", a.memcpy_us},
          {"calls", a.calls},         {"counts_vary", a.counts_vary}};
}

ActivitiesPerCall activities_from_json(const nlohmann::json& j) {
  ActivitiesPerCall a;
  a.kernels = j.value("kernels", 0);
  a.memsets = j.value("memsets", 0);
  a.memcpys = j.value("memcpys", 0);
  a.kernel_us = j.value("kernel_us", 0.0);
  a.memset_us = j.value("memset_us", 0.0);
  a.memcpy_us = j.value("memcpy_us", 0.0);
  a.calls = j.value("calls", 0);
  a.counts_vary = j.value("counts_vary", false);
  return a;
}

}  // namespace caliber
