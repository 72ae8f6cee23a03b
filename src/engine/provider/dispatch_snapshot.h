#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace caliber {

// Which kernel PyTorch's dispatcher runs for an operator on a device, read from its computed
// dispatch table: one entry per dispatch key that decides it (the device's backend key and its
// autograd key), each the registration's debug text ("registered at file:line"). Two
// identities differ exactly when some registration replaced the kernel, which is how coverage
// is decided without timing anything.
//
// `op` is a full operator name ("aten::add.Tensor", "aten::relu") or a bare name without an
// overload ("aten::add", what an op names by default), which stands for all its overloads when
// there is no overload "": replacing any of them changes the identity. `device_type` is a torch
// device type ("cpu", "cuda"). std::nullopt when the dispatcher does not know the operator.
std::optional<std::string> kernel_identity(const std::string& op, const std::string& device_type);

// The kernel identities of every operator the dispatcher knows, on every device type caliber may
// run on. Taken before a candidate is loaded, it tells whether a candidate left registrations
// behind after its scope ended (the baseline is then no longer ATen's).
class DispatchSnapshot {
 public:
  static DispatchSnapshot take();

  // std::nullopt when the operator was unknown at the time of the snapshot.
  std::optional<std::string> kernel(const std::string& op, const std::string& device_type) const;

 private:
  std::map<std::string, std::map<std::string, std::string>> kernels_;  // op -> device -> id
};

}  // namespace caliber
