#pragma once

#include <cstdint>
#include <string_view>

namespace caliber {

// FNV-1a, 64 bits: stable across runs, builds and hosts (unlike std::hash) and dependency-free.
// The seeds, the work queue's home lanes and the shape-set digests all hash with it.
inline constexpr uint64_t kFnv1aOffsetBasis = 14695981039346656037ull;
uint64_t fnv1a(std::string_view text, uint64_t basis = kFnv1aOffsetBasis);

}  // namespace caliber
