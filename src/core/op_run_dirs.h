#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace caliber {

// Where a batch keeps an op's runs (ops/<op>/ in a batch directory). An op whose all-dtypes run
// failed runs again dtype by dtype, each into a directory of its own; those reruns supersede the
// failed run for every reader (the batch's --record, summary, compare, report).
std::filesystem::path dtype_rerun_dir(const std::filesystem::path& op_dir,
                                      const std::string& dtype);

// The op's final runs: its dtype reruns in name order when it has any, else op_dir itself.
std::vector<std::filesystem::path> final_run_dirs(const std::filesystem::path& op_dir);

}  // namespace caliber
