#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace caliber {

// Merges TunableOp results files (CSV: "Validator,KEY,VALUE" header lines, then one line per
// tuned GEMM: "OP_SIGNATURE,PARAMS,SOLUTION,TIME"). Validator lines are kept once (first
// seen); result lines are deduplicated by their (signature, params) key, first seen wins, so
// shards that tuned the same problem do not make the file ambiguous.
std::string merge_tunableop_records(const std::vector<std::string>& files);

// Reads the files that exist among `inputs`, merges them, and writes `output` atomically.
// Returns how many inputs were found.
int merge_tunableop_files(const std::vector<std::filesystem::path>& inputs,
                          const std::filesystem::path& output);

}  // namespace caliber
