#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backend/capabilities.h"
#include "backend/device_info.h"
#include "backend/failure_classifier.h"

namespace caliber {

// Everything caliber knows about one accelerator family. Nothing above backend/ names a vendor;
// it asks a descriptor.
struct BackendDescriptor {
  std::string name;                  // canonical: cuda, rocm, musa, ascend, cpu
  std::vector<std::string> aliases;  // hip, amd, ...
  std::string vendor;                // for messages only
  std::string visibility_variable;   // CUDA_VISIBLE_DEVICES, ...
  std::string torch_device_type;     // "cuda", "cpu", "npu", "musa", "opencl"
  Capabilities capabilities;
  FailureClassifier classifier;
  // Lists the devices this process can see through the backend's runtime library; an absent
  // library means no devices, never an error.
  std::function<std::vector<DeviceInfo>()> enumerate;
  // The Python package PyTorch loads this backend from (torch_musa, torch_npu, ...), imported
  // through the embedded interpreter before any device work; empty when torch drives the device
  // itself (cuda, ROCm's HIP behind "cuda", cpu).
  std::string python_module;
  // No runtime library of its own to enumerate with: its devices are counted through torch once
  // the backend is loaded (see backend/torch_enumeration.h). Such a backend is never chosen
  // automatically; it is asked for by name.
  bool enumerated_by_torch = false;
};

}  // namespace caliber
