#pragma once

#include <CLI/CLI.hpp>

#include "report/compare.h"

namespace caliber {

// The gate and verdict flags shared by `caliber compare` and `caliber report --compare`.
void add_compare_options(CLI::App* command, CompareOptions& options);

}  // namespace caliber
