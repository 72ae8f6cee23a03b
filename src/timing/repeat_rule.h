#pragma once

#include <string>
#include <vector>

#include "timing/measure_options.h"

namespace caliber {

// repeat=N asks for the median of N whole measurements. A median of sequences is undefined, so
// for return_mode=all and for quantiles one repeat is taken and a marker says so.
int repeats_to_take(const MeasureOptions& options, std::vector<std::string>& markers);

}  // namespace caliber
