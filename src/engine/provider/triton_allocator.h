#pragma once

#include <pybind11/pybind11.h>

namespace caliber {

// Triton kernels that build tensor descriptors on the device (TMA on Hopper: FlagGems' FLA ops,
// its Hopper mm) ask Triton's allocator for scratch memory at launch, and Triton's default
// allocator raises. FlagGems' benchmark installs one that takes the scratch from torch's caching
// allocator (benchmark/test_FLA/test_chunk_gated_delta_rule_perf.py); a candidate timed by caliber
// gets the same. Returns a callable that, called with the GIL held on the thread about to launch,
// installs that allocator unless Triton is not loaded or an allocator is already set on that
// thread (Triton keeps it per thread, in a ContextVar; the candidate's own one is kept). It
// returns whether it installed one.
pybind11::object make_triton_allocator_installer();

}  // namespace caliber
