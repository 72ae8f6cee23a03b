#pragma once

#include <c10/core/DeviceType.h>
#include <c10/util/Exception.h>

#include <string>

#include "backend/backend_descriptor.h"
#include "timing/device_api.h"

namespace caliber {

// The c10 device type of a backend's torch_device_type, as torch parses it once the backend is
// loaded (a PrivateUse1 backend's own name, "privateuseone" for any). Throws a usage Error when
// torch does not know the name.
c10::DeviceType torch_device_type_of(const BackendDescriptor& backend);

// The first line of a c10 error, without torch's backtrace: what a runtime said it cannot do.
std::string short_message(const c10::Error& error);

// `body()`, with the runtime's own failures (c10 errors) as DeviceErrors of `phase`; the op's
// failures (std::exception from its call) pass unchanged, so that they are classified like the
// native path's.
template <typename Body>
auto runtime_step(const char* phase, Body&& body) {
  try {
    return body();
  } catch (const c10::Error& e) {
    throw DeviceError(phase, short_message(e));
  }
}

}  // namespace caliber
