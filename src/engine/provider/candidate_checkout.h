#pragma once

#include <filesystem>
#include <string>

namespace caliber {

// The source checkout a candidate comes from, for SHAPE_MODE=upstream: the nearest folder
// above the candidate's module (python:, found without importing it) or library (library:)
// that holds `benchmark/core_shapes.yaml`, as a FlagGems checkout does. Throws a usage Error
// naming the candidate and where it was found when there is none (a wheel install has no
// benchmark/ folder).
std::filesystem::path candidate_checkout(const std::string& candidate_spec);

// The folder above `start` (a file or folder) that holds benchmark/core_shapes.yaml; empty when
// none does.
std::filesystem::path checkout_above(const std::filesystem::path& start);

}  // namespace caliber
