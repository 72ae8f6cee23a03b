#pragma once

#include <memory>

#include "timing/device_api.h"

namespace caliber::cuda {

// Points the device's default CUDA generator at a throwaway copy of its state for the scope of a
// capture, and back at the original afterwards. A capture that aborts can leave the state it used
// marked as capturing, which would wedge every later random op; with the guard, only the copy is
// left so. A graph that captured successfully keeps (and advances) the copy, so replays do not
// move the user's generator either.
std::unique_ptr<ScopedRngGuard> make_cuda_rng_guard(int device_index);

}  // namespace caliber::cuda
