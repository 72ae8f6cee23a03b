#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"
#include "ops/op_def.h"

namespace caliber {

struct InstanceOptions {
  std::string device = "cpu";  // a torch device string: "cpu", "cuda:0"
  std::string state_dir;       // for ops that keep state across processes; may be empty
};

struct Verification {
  bool ok = false;
  bool has_reference = false;  // false: checked by the op's own property check
  std::string detail;          // why it failed, or how close it came
};

// One op x shape x dtype on one device, with its inputs built and one untimed call done (which
// sizes the output for the byte model, and for backward ops is the forward pass whose graph
// every timed call differentiates). Errors from ATen come out as caliber::Error kOpFailure.
class OpInstance {
 public:
  OpInstance(OpInstance&&) noexcept;
  OpInstance& operator=(OpInstance&&) noexcept;
  ~OpInstance();

  const OpDef& op() const;
  // The timed call. In-place ops mutate their first input; call reset() (untimed) before a
  // call that must see fresh data. Where a timer cannot reset between calls (a captured graph
  // of N calls), the op runs on its own output: say so in the caliber.
  const std::function<void()>& call() const;
  const std::function<void()>& reset() const;  // empty unless the op is in-place
  double bytes() const;
  double flops() const;  // 0 when the op has no FLOP model
  // FlagGems' "Size Detail": [torch.Size([4096, 4096]), torch.Size([4096, 4096])]
  const std::string& size_detail() const;
  const std::vector<std::vector<int64_t>>& input_shapes() const;
  // Runs the op once more (resetting first when in-place) and compares its output with a float64
  // CPU reference built from the same inputs, or applies the op's own check.
  Verification verify() const;
  // The case's inputs, for a call the candidate binds to them (a python: function).
  Args& args() const;
  // Runs the op's call, then `other`, on the same inputs (restored before and after each) and
  // compares other's result with the op's, at the op's tolerance. A result `other` leaves
  // undefined (a Python function returning None) is read from the input the op's call returns
  // (moe_sum's output).
  Verification compare_with(const std::function<at::Tensor()>& other) const;

  struct State;

 private:
  explicit OpInstance(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  friend OpInstance instantiate(const OpDef&, const ShapeCase&, DType, const InstanceOptions&);
};

OpInstance instantiate(const OpDef& op, const ShapeCase& shape, DType dtype,
                       const InstanceOptions& options);

}  // namespace caliber
