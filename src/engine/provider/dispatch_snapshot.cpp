#include "engine/provider/dispatch_snapshot.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/Device.h>
#include <c10/core/TensorOptions.h>
#include <fmt/format.h>

#include "core/error.h"

namespace caliber {
namespace {

// Device types whose kernels a candidate may replace: the accelerators of backend/ (MUSA and
// Ascend register as PrivateUse1) and the host.
const std::vector<std::string>& snapshot_device_types() {
  static const std::vector<std::string> kTypes = {"cpu", "cuda", "hip",
                                                  "xpu", "mps",  "privateuseone"};
  return kTypes;
}

std::vector<c10::DispatchKey> deciding_keys(const std::string& device_type) {
  c10::DispatchKey backend;
  try {
    backend = c10::computeDispatchKey(std::nullopt, std::nullopt, c10::Device(device_type));
  } catch (const c10::Error&) {
    throw Error(
        ErrorKind::kUsage,
        fmt::format("'{}' is not a torch device type (accepted: cpu, cuda, ...)", device_type));
  }
  return {backend, c10::getAutogradKeyFromBackend(c10::toBackendComponent(backend))};
}

// A library may register a kernel for an operator no one has def()ed (FlagGems does for
// aten::isfinite.out, and for bare names such as aten::bitwise_left_shift and
// aten::conv_transpose2d, whose overloads are .Tensor and .input): the dispatcher then knows the
// name, but no call can reach a kernel without a schema, so such a handle counts as absent. Were
// it counted, a bare name would change identity when the library loads and read as overridden
// while every call still runs ATen's kernel.
std::optional<c10::OperatorHandle> callable_op(const c10::OperatorName& name) {
  auto handle = c10::Dispatcher::singleton().findOp(name);
  if (handle && !handle->hasSchema()) return std::nullopt;
  return handle;
}

std::string identity_of(const c10::OperatorHandle& op, const std::vector<c10::DispatchKey>& keys) {
  std::string identity;
  for (const auto key : keys) {
    identity += c10::toString(key);
    identity += ": ";
    identity += op.hasComputedKernelForDispatchKey(key)
                    ? op.getComputedKernelForDispatchKey(key).debug()
                    : std::string("<no kernel>");
    identity += '\n';
  }
  return identity;
}

c10::OperatorName operator_name(const std::string& op) {
  const auto dot = op.find('.', op.find("::") == std::string::npos ? 0 : op.find("::"));
  if (dot == std::string::npos) return c10::OperatorName(op, "");
  return c10::OperatorName(op.substr(0, dot), op.substr(dot + 1));
}

// The identity of a bare operator name: each overload's name and identity, in name order;
// std::nullopt when there is none.
template <typename It>
std::optional<std::string> joined_overloads(It begin, It end) {
  if (begin == end) return std::nullopt;
  std::string identity;
  for (It it = begin; it != end; ++it) identity += it->first + "\n" + it->second;
  return identity;
}

}  // namespace

std::optional<std::string> kernel_identity(const std::string& op, const std::string& device_type) {
  auto& dispatcher = c10::Dispatcher::singleton();
  const auto name = operator_name(op);
  if (const auto handle = callable_op(name)) {
    return identity_of(*handle, deciding_keys(device_type));
  }
  if (!name.overload_name.empty()) return std::nullopt;
  // A bare name ("aten::add", an op's default) has no overload "" for most operators; it then
  // stands for all its overloads, so replacing any of them (add.Tensor) changes the identity.
  std::map<std::string, std::string> overloads;
  for (const auto& other : dispatcher.getAllOpNames()) {
    if (other.name != name.name) continue;
    if (const auto handle = callable_op(other)) {
      overloads[c10::toString(other)] = identity_of(*handle, deciding_keys(device_type));
    }
  }
  return joined_overloads(overloads.begin(), overloads.end());
}

DispatchSnapshot DispatchSnapshot::take() {
  DispatchSnapshot snapshot;
  std::map<std::string, std::vector<c10::DispatchKey>> keys;
  for (const auto& type : snapshot_device_types()) keys[type] = deciding_keys(type);
  auto& dispatcher = c10::Dispatcher::singleton();
  for (const auto& name : dispatcher.getAllOpNames()) {
    const auto handle = callable_op(name);
    if (!handle) continue;
    auto& per_device = snapshot.kernels_[c10::toString(name)];
    for (const auto& [type, type_keys] : keys) per_device[type] = identity_of(*handle, type_keys);
  }
  return snapshot;
}

std::optional<std::string> DispatchSnapshot::kernel(const std::string& op,
                                                    const std::string& device_type) const {
  const auto found = kernels_.find(op);
  if (found != kernels_.end()) {
    const auto per_device = found->second.find(device_type);
    if (per_device == found->second.end()) return std::nullopt;
    return per_device->second;
  }
  if (!operator_name(op).overload_name.empty()) return std::nullopt;
  // A bare name: every overload, as kernel_identity() joins them.
  std::map<std::string, std::string> overloads;
  for (auto it = kernels_.lower_bound(op + "."); it != kernels_.end(); ++it) {
    if (it->first.rfind(op + ".", 0) != 0) break;
    const auto per_device = it->second.find(device_type);
    if (per_device != it->second.end()) overloads[it->first] = per_device->second;
  }
  return joined_overloads(overloads.begin(), overloads.end());
}

}  // namespace caliber
