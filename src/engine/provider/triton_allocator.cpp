#include "engine/provider/triton_allocator.h"

#include <pybind11/eval.h>

namespace py = pybind11;

namespace caliber {

namespace {

// Python, because the allocator is a Python callable and Triton is only looked at, never
// imported: a candidate without Triton must not pay for loading it.
constexpr const char* kInstaller = R"(
import sys

def install():
    triton = sys.modules.get("triton")
    if triton is None or not hasattr(triton, "set_allocator"):
        return False
    try:
        from triton.runtime import _allocation
        if _allocation._allocator.get() is not _allocation._NULL_ALLOCATOR:
            return False
    except (ImportError, AttributeError):
        pass  # a Triton without these names: set ours, as FlagGems' benchmark does
    import torch
    # Resolved here, once: the allocator runs at every launch of such a kernel, timed ones too.
    empty, uint8 = torch.empty, torch.uint8
    device = torch.accelerator.current_accelerator()

    def scratch(size, alignment, stream):
        # torch's allocator aligns to 512 bytes, more than Triton asks for (128 at most).
        return empty((size,), dtype=uint8, device=device)

    triton.set_allocator(scratch)
    return True
)";

}  // namespace

py::object make_triton_allocator_installer() {
  py::dict scope;
  scope["__builtins__"] = py::module_::import("builtins");
  py::exec(kInstaller, scope);
  return scope["install"];
}

}  // namespace caliber
