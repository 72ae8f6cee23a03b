#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace caliber {

// What the `kernel` timer saw one call launch on the device, per kind of activity: how many
// kernels, memsets and memcpys, and their summed durations. The `kernel` latency sums all three;
// ncu profiles kernels only, so a row shows which of the two a difference comes from. Counts are
// the most frequent count over the calls measured; times are medians over those calls.
struct ActivitiesPerCall {
  int kernels = 0;
  int memsets = 0;
  int memcpys = 0;
  double kernel_us = 0;
  double memset_us = 0;
  double memcpy_us = 0;
  int calls = 0;             // how many calls the summary is over
  bool counts_vary = false;  // some call launched a different number of some kind

  bool operator==(const ActivitiesPerCall&) const = default;
};

// "kernels=7 memsets=1 memcpys=0": the counts, for logs and terminals.
std::string to_text(const ActivitiesPerCall& a);

// {"kernels": 7, "memsets": 1, "memcpys": 0, "kernel_us": ..., "memset_us": ...,
//  "memcpy_us": ..., "calls": ..., "counts_vary": false}: the row field a script reads.
nlohmann::json to_json(const ActivitiesPerCall& a);
ActivitiesPerCall activities_from_json(const nlohmann::json& json);

}  // namespace caliber
