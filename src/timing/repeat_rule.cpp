#include "timing/repeat_rule.h"

#include <algorithm>

#include "timing/markers.h"

namespace caliber {

int repeats_to_take(const MeasureOptions& options, std::vector<std::string>& markers) {
  int requested = std::max(options.repeat, 1);
  if (requested == 1) return 1;
  if (options.return_mode == ReturnMode::kAll) {
    markers.push_back(repeat_skipped_marker(requested, "return_mode=all"));
    return 1;
  }
  if (!options.quantiles.empty()) {
    markers.push_back(repeat_skipped_marker(requested, "quantiles"));
    return 1;
  }
  return requested;
}

}  // namespace caliber
