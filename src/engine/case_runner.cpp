#include "engine/case_runner.h"

#include <ATen/Context.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/dtype.h"
#include "core/error.h"
#include "core/fnv1a.h"
#include "engine/candidate_call_failure.h"
#include "engine/missing_kernel.h"
#include "engine/op_instance.h"
#include "engine/provider/provider.h"
#include "timing/failure_verdicts.h"
#include "timing/markers.h"
#include "timing/measure.h"
#include "timing/measurement.h"

namespace caliber {
namespace {

// Seeds the host's generator and the case device's (not at::manual_seed's every accelerator: a
// backend loaded beside the one under test, or one without default generators, such as
// torch-opencl, would throw there).
void seed_generators(const at::Device& device, uint64_t seed) {
  auto seed_one = [seed](at::Generator generator) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_current_seed(seed);
  };
  seed_one(at::globalContext().defaultGenerator(c10::DeviceType::CPU));
  if (device.is_cpu()) return;
  try {
    seed_one(at::globalContext().defaultGenerator(device));
  } catch (const c10::Error&) {
    // No default generator on this backend: its inputs come from the host's, seeded above.
  }
}

void fill_rates(ResultRow& row, double bytes, double flops, const DevicePeaks* peaks) {
  if (row.latency_ms <= 0) return;
  double seconds = row.latency_ms * 1e-3;
  row.gbps = bytes / seconds / 1e9;
  row.tflops = flops / seconds / 1e12;
  if (peaks && peaks->bandwidth_gbps > 0 && bytes > 0) {
    row.pct_peak_bandwidth = 100.0 * row.gbps / peaks->bandwidth_gbps;
  }
  if (peaks && peaks->matrix_tflops > 0 && flops > 0) {
    row.pct_peak_flops = 100.0 * row.tflops / peaks->matrix_tflops;
  }
}

// A fixed 100 ms policy on a microsecond op takes tens of thousands of samples; results.jsonl
// keeps an evenly strided subset (statistics are computed before thinning, over all samples).
constexpr size_t kMaxStoredSamples = 1000;

void thin_samples(ResultRow& row, size_t keep) {
  if (row.samples_ms.size() <= keep) return;
  std::vector<double> kept;
  kept.reserve(keep);
  double stride = static_cast<double>(row.samples_ms.size()) / static_cast<double>(keep);
  for (size_t i = 0; i < keep; ++i) kept.push_back(row.samples_ms[static_cast<size_t>(i * stride)]);
  row.samples_ms = std::move(kept);
  row.markers.push_back(fmt::format("samples_stored={}", keep));
}

}  // namespace

CaseRunner::CaseRunner(const OpDef& op, DeviceContext& device, Setup setup)
    : op_(op), device_(device), setup_(std::move(setup)) {}

ResultRow CaseRunner::case_row(const ShapeCase& shape, DType dtype, const std::string& desc) const {
  ResultRow row;
  row.op = op_.name();
  row.family = to_string(op_.family());
  row.dtype = dtype_name(dtype);
  row.shape_desc = desc;
  row.timer_requested = to_string(setup_.plan.primary);
  row.cache =
      cache_caliber(setup_.measure.cache, setup_.measure.flush_mb, setup_.measure.flush_method);
  row.policy = to_string(setup_.measure.sampling.policy);
  row.repeat = setup_.measure.repeat;
  row.size_detail = shape.label();
  return row;
}

ResultRow CaseRunner::measured_row(ResultRow row, const std::string& provider,
                                   const std::function<void()>& call, double bytes, double flops,
                                   int calls_made) {
  row.provider = provider;
  device_.reset_peak_memory();
  MeasureOptions options = setup_.measure;
  options.calls_made = calls_made;
  Measurement m = measure(device_.api(), setup_.plan, options, call);
  fill_result_row(m, row);  // the measurement's markers follow the row's own
  thin_samples(row, kMaxStoredSamples);
  row.peak_memory_bytes = device_.peak_memory_bytes();
  fill_rates(row, bytes, flops, device_.peaks());
  return row;
}

ResultRow CaseRunner::measure_function(ResultRow row, const std::string& provider,
                                       const std::string& function, OpInstance& instance) {
  try {
    BoundFunction bound = setup_.candidate->bind_function(*op_.python_fn(), instance.args());
    // A fused kernel is a new computation, not ATen's under another name: it is timed only once
    // its result matches the baseline's on the case's inputs.
    Verification check = instance.compare_with(bound.result);
    if (!check.ok) {
      throw Error(ErrorKind::kOpFailure,
                  fmt::format("python function {}: result differs from the baseline's: {}",
                              function, check.detail));
    }
    row.markers.push_back(fmt::format("covered_by[python function {}]", function));
    return measured_row(std::move(row), provider, bound.call, instance.bytes(), instance.flops());
  } catch (const Error&) {
    throw;
  } catch (...) {
    rethrow_candidate_call_failure(*setup_.candidate, setup_.measure.classifier,
                                   "python function " + function);
  }
}

void CaseRunner::release_after_failure(const std::string& failure) {
  try {
    device_.release_cached_memory();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(ErrorKind::kDeviceFatal,
                fmt::format("the device failed after the case's failure ({}): releasing its "
                            "cached memory: {}",
                            error_summary(failure), e.what()));
  }
}

const Coverage& CaseRunner::coverage() {
  if (!coverage_) coverage_ = setup_.candidate->covers_op(op_, device_.backend().torch_device_type);
  return *coverage_;
}

OpInstance CaseRunner::instance_of(const ShapeCase& shape, DType dtype) {
  // The same input values for the same case whatever ran before it in this process: a worker's
  // generators would otherwise go on from the previous op's draws, and data-dependent ops (sort,
  // unique, scatter) time other work in a worker than in a fresh process or in another order.
  seed_generators(device_.torch_device(),
                  fnv1a(fmt::format("{}|{}|{}", op_.name(), shape.label(), dtype_name(dtype))));
  return instantiate(op_, shape, dtype,
                     {.device = device_.torch_device(), .state_dir = setup_.state_dir});
}

CaseRunner::Warmed CaseRunner::warm_case(const ShapeCase& shape, DType dtype) {
  if (setup_.candidate != nullptr && coverage().function.empty() && !coverage().covered()) {
    return {.covered = false, .failure = ""};
  }
  try {
    OpInstance instance = instance_of(shape, dtype);
    if (setup_.candidate == nullptr) {
      if (op_.backward()) instance.call()();  // its instance has not made the gradient call yet
    } else if (!coverage().function.empty()) {
      try {
        setup_.candidate->bind_function(*op_.python_fn(), instance.args()).call();
      } catch (const Error&) {
        throw;
      } catch (...) {
        rethrow_candidate_call_failure(*setup_.candidate, setup_.measure.classifier,
                                       "python function " + coverage().function);
      }
    } else {
      with_candidate(*setup_.candidate, [&] { instance.call()(); });
    }
    device_.api().synchronize();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kOpFailure) throw;
    release_after_failure(e.what());  // as a measured case does after a failure
    return {.covered = true, .failure = error_summary(e.what())};
  }
  return {};
}

std::vector<ResultRow> CaseRunner::run_case(const ShapeCase& shape, DType dtype,
                                            const std::string& desc) {
  auto started = std::chrono::steady_clock::now();
  ResultRow row = case_row(shape, dtype, desc);
  if (op_.inplace()) row.markers.push_back("inplace[graph/batch reuse output]");
  std::vector<ResultRow> rows;
  auto fail = [&](ResultRow r, const std::string& provider, const std::string& error) {
    r.provider = provider;
    r.status = RowStatus::kFailed;
    r.error = error_summary(error);
    if (auto missing = missing_kernel(error)) {
      r.error = not_implemented_text(*missing);
      r.markers.push_back(not_implemented_marker(*missing));
    }
    return r;
  };
  try {
    device_.reset_peak_memory();
    OpInstance instance = instance_of(shape, dtype);
    row.inputs_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    row.size_detail = instance.size_detail();
    for (const auto& dims : instance.input_shapes()) {
      row.shape.push_back(std::vector<long>(dims.begin(), dims.end()));
    }
    // `candidate`: inside the candidate's scope; `function`: its own function for the op instead.
    auto measure_provider = [&](const std::string& provider, bool candidate,
                                const std::string& function = "") {
      ResultRow r = row;
      try {
        // The instance made the op's own call once on these inputs (its output), the first
        // call's JIT and autotuning included; a backward op's call is the gradient, not made yet,
        // and a candidate's call is its own.
        const int calls_made = candidate || op_.backward() ? 0 : 1;
        auto measure_once = [&] {
          return measured_row(row, provider, instance.call(), instance.bytes(), instance.flops(),
                              calls_made);
        };
        if (!function.empty()) return measure_function(row, provider, function, instance);
        return candidate ? with_candidate(*setup_.candidate, measure_once) : measure_once();
      } catch (const CapturePoisonedError& e) {
        stopped_ = true;
        ResultRow failed = fail(r, provider, e.what());
        failed.markers.push_back(capture_poisoned_text(op_.name()));
        return failed;
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::kOpFailure) throw;
        return fail(r, provider, e.what());
      }
    };
    rows.push_back(measure_provider("baseline", false));
    if (setup_.candidate != nullptr && !stopped_) {
      std::string spec = setup_.candidate->spec();
      const Coverage& covers = coverage();
      if (!covers.baseline_intact()) {
        rows.front().markers.push_back(
            fmt::format("baseline_changed[{}]", fmt::join(covers.baseline_changed, ",")));
      }
      if (!covers.covered()) {
        ResultRow r = row;
        r.provider = spec;
        r.status = RowStatus::kNotCovered;
        r.error = covers.function_declared
                      ? fmt::format("not covered: {} has no python function {}", spec,
                                    op_.python_fn()->name)
                      : fmt::format("not covered: the candidate overrides none of {}",
                                    fmt::join(op_.aten(), ", "));
        rows.push_back(r);
      } else {
        ResultRow r = measure_provider(spec, true, covers.function);
        if (r.status == RowStatus::kSuccess && rows.front().status == RowStatus::kSuccess &&
            r.latency_ms > 0) {
          r.baseline_ms = rows.front().latency_ms;
          r.speedup = rows.front().latency_ms / r.latency_ms;
        }
        rows.push_back(r);
      }
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kOpFailure) throw;
    rows.push_back(fail(row, "baseline", e.what()));
  }
  // A case that ran out of device memory leaves the caching allocator holding what it reserved,
  // and the op's next shapes then fail too, graph capture of a small one included. The inputs are
  // freed by now; after a poisoned capture the op stops and the context is left alone.
  auto failed = std::find_if(rows.begin(), rows.end(),
                             [](const ResultRow& r) { return r.status == RowStatus::kFailed; });
  if (failed != rows.end() && !stopped_) release_after_failure(failed->error);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (auto& r : rows) r.wall_s = wall;
  return rows;
}

}  // namespace caliber
