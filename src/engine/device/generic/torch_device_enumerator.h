#pragma once

namespace caliber {

// Installs the enumerator that counts the devices of backends only torch can count (see
// backend/torch_enumeration.h): it loads the backend (load_backend, with the requested
// --backend-library) and asks the backend's DeviceGuardImpl, naming each device as torch's device
// module does where it can. Call once at start-up; counting happens only when such a backend is
// asked for.
void install_torch_device_enumerator();

}  // namespace caliber
