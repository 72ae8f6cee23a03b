#include "core/fnv1a.h"

namespace caliber {

uint64_t fnv1a(std::string_view text, uint64_t basis) {
  uint64_t hash = basis;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace caliber
