#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/timer_plan.h"
#include "core/result_row.h"
#include "core/shape.h"
#include "engine/device/device_context.h"
#include "engine/op_instance.h"
#include "engine/provider/provider.h"
#include "ops/op_def.h"
#include "timing/measure_options.h"

namespace caliber {

// Runs one op's cases on one device: builds the inputs, measures the baseline (and the
// candidate, interleaved per shape so drift hits both), and turns each measurement into a
// results row with its caliber. An op failure becomes a FAILED row; a device-fatal error
// propagates (the caller stops the run); a poisoned capture stops the op.
class CaseRunner {
 public:
  struct Setup {
    TimerPlan plan;
    MeasureOptions measure;
    std::string state_dir;          // for ops that keep state across attempts
    Provider* candidate = nullptr;  // null: baseline only
  };

  // Rows report percent of `device`'s peaks when it has measured them.
  CaseRunner(const OpDef& op, DeviceContext& device, Setup setup);

  // The row of one shape x dtype before anything is measured: what the case is and the caliber
  // it is measured at.
  ResultRow case_row(const ShapeCase& shape, DType dtype, const std::string& desc) const;

  // All rows of one shape x dtype (baseline, then candidate when there is one).
  std::vector<ResultRow> run_case(const ShapeCase& shape, DType dtype, const std::string& desc);

  // A warm pass's case: the inputs (which make the baseline's call) and one call of the
  // candidate, untimed and unverified, so that its JIT compiles and its autotuner runs before a
  // measured run needs them. Nothing is built for an op the candidate does not cover. A
  // device-fatal error propagates.
  struct Warmed {
    bool covered = true;  // false: the candidate has nothing for this op, so nothing ran
    std::string failure;  // why the call failed; empty when it did not
  };
  Warmed warm_case(const ShapeCase& shape, DType dtype);

  // True once a capture poisoned the context: the op's remaining cases are not attempted.
  bool stopped() const { return stopped_; }

 private:
  // `row` carries the case's description; the measurement fills in the rest. `calls_made`: calls
  // of `call` the inputs' instantiation already made (MeasureOptions::calls_made).
  ResultRow measured_row(ResultRow row, const std::string& provider,
                         const std::function<void()>& call, double bytes, double flops,
                         int calls_made = 0);
  // The candidate's own function for the op (`function`, as coverage names it), checked against
  // the baseline's result, then timed where the op's call would be.
  ResultRow measure_function(ResultRow row, const std::string& provider,
                             const std::string& function, OpInstance& instance);

  // What the candidate covers of the op, asked of the dispatcher on first use (a candidate is set).
  const Coverage& coverage();
  // The case's inputs, its generators seeded from the case alone.
  OpInstance instance_of(const ShapeCase& shape, DType dtype);
  // Hands the allocator's cache back after a case that failed with `failure`. A device the
  // failure broke fails here too: that becomes Error(kDeviceFatal) carrying `failure`.
  void release_after_failure(const std::string& failure);

  const OpDef& op_;
  DeviceContext& device_;
  Setup setup_;
  bool stopped_ = false;
  std::optional<Coverage> coverage_;  // asked of the dispatcher once per op
};

}  // namespace caliber
