// Times the validation cases of issue 3 with every timer and both sampling policies on one CUDA
// device, and the kernel timer cold under each flush method (issue 22), `--repeats` times each,
// and writes JSON that validate_timers_ref.py merges with triton's do_bench and ncu. Inputs are
// built with ATen directly: this checks the timers, not the op corpus.
#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/dropout.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/topk.h>
#include <ATen/ops/zeros.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "backend/registry.h"
#include "backend/timer_plan.h"
#include "core/activities_per_call.h"
#include "core/error.h"
#include "core/stats.h"
#include "engine/device/device_api_factory.h"
#include "timing/measure.h"

namespace caliber {
namespace {

struct Case {
  std::string name;
  std::function<Call()> build;  // makes the inputs, returns the call that uses them
};

at::TensorOptions on_gpu(at::ScalarType dtype) {
  return at::TensorOptions().device(at::kCUDA, 0).dtype(dtype);
}

std::vector<Case> validation_cases() {
  using at::ScalarType;
  return {
      {"mm_bf16_4096x4096x4096",
       [] {
         at::Tensor a = at::randn({4096, 4096}, on_gpu(ScalarType::BFloat16));
         at::Tensor b = at::randn({4096, 4096}, on_gpu(ScalarType::BFloat16));
         return Call([a, b] { at::mm(a, b); });
       }},
      {"mm_fp16_256x256x256",
       [] {
         at::Tensor a = at::randn({256, 256}, on_gpu(ScalarType::Half));
         at::Tensor b = at::randn({256, 256}, on_gpu(ScalarType::Half));
         return Call([a, b] { at::mm(a, b); });
       }},
      {"softmax_fp16_4096x4096",
       [] {
         at::Tensor x = at::randn({4096, 4096}, on_gpu(ScalarType::Half));
         return Call([x] { at::softmax(x, -1); });
       }},
      {"add_fp32_1048576",
       [] {
         at::Tensor x = at::randn({1 << 20}, on_gpu(ScalarType::Float));
         at::Tensor y = at::randn({1 << 20}, on_gpu(ScalarType::Float));
         return Call([x, y] { at::add(x, y); });
       }},
      {"sum_fp32_16777216",
       [] {
         at::Tensor x = at::randn({1 << 24}, on_gpu(ScalarType::Float));
         return Call([x] { at::sum(x); });
       }},
      {"layer_norm_fp16_4096x4096",
       [] {
         at::Tensor x = at::randn({4096, 4096}, on_gpu(ScalarType::Half));
         at::Tensor w = at::ones({4096}, on_gpu(ScalarType::Half));
         at::Tensor b = at::zeros({4096}, on_gpu(ScalarType::Half));
         return Call([x, w, b] { at::layer_norm(x, {4096}, w, b); });
       }},
      {"sort_fp32_1048576",
       [] {
         at::Tensor x = at::randn({1 << 20}, on_gpu(ScalarType::Float));
         return Call([x] { at::sort(x); });
       }},
      {"topk_fp16_64x8192_k128",
       [] {
         at::Tensor x = at::randn({64, 8192}, on_gpu(ScalarType::Half));
         return Call([x] { at::topk(x, 128); });
       }},
      {"uniform__fp16_4096x4096",
       [] {
         at::Tensor x = at::empty({4096, 4096}, on_gpu(ScalarType::Half));
         return Call([x]() mutable { x.uniform_(); });
       }},
      {"dropout_fp16_4096x4096",
       [] {
         at::Tensor x = at::randn({4096, 4096}, on_gpu(ScalarType::Half));
         return Call([x] { at::dropout(x, 0.5, /*train=*/true); });
       }},
  };
}

struct Variant {
  Timer timer;
  SamplePolicy policy;
  CacheState cache;
  FlushMethod flush = kDefaultFlushMethod;  // cold only
  int captures = kDefaultGraphCaptures;     // graph only
};

// Issue 22's question first, for every case, so that a deadline cuts the rest: the kernel timer
// hot and cold under each flush method, against ncu hot and ncu --cache-control all.
std::vector<Variant> first_pass_variants() {
  std::vector<Variant> variants = {{Timer::kKernel, SamplePolicy::kFixed, CacheState::kHot}};
  for (FlushMethod flush : {FlushMethod::kWrite, FlushMethod::kRead, FlushMethod::kWriteRead}) {
    variants.push_back({Timer::kKernel, SamplePolicy::kFixed, CacheState::kCold, flush});
  }
  return variants;
}

// Then every other timer, hot, under both sampling policies (the CV and wall-time targets).
std::vector<Variant> second_pass_variants() {
  std::vector<Variant> variants;
  for (SamplePolicy policy : {SamplePolicy::kFixed, SamplePolicy::kAdaptive}) {
    for (Timer timer : {Timer::kGraph, Timer::kDirect, Timer::kBatch, Timer::kKernel}) {
      if (timer == Timer::kKernel && policy == SamplePolicy::kFixed) continue;  // first pass
      variants.push_back({timer, policy, CacheState::kHot});
    }
  }
  return variants;
}

// Last, the graph timer with a count of captures other than the default's (one, what it did
// before captures were a knob, or eight when one is the default), both policies: how the CV
// across repeats moves with the captures.
std::vector<Variant> capture_pass_variants() {
  const int other = kDefaultGraphCaptures == 1 ? 8 : 1;
  std::vector<Variant> variants;
  for (SamplePolicy policy : {SamplePolicy::kFixed, SamplePolicy::kAdaptive}) {
    variants.push_back({Timer::kGraph, policy, CacheState::kHot, kDefaultFlushMethod, other});
  }
  return variants;
}

nlohmann::json variant_key(const std::string& case_name, const Variant& variant) {
  nlohmann::json row = {{"case", case_name},
                        {"timer", to_string(variant.timer)},
                        {"policy", to_string(variant.policy)},
                        {"cache", to_string(variant.cache)}};
  if (variant.cache == CacheState::kCold) row["flush_method"] = to_string(variant.flush);
  if (variant.timer == Timer::kGraph) {
    row["graph_captures"] = variant.captures;
    row["default_graph_captures"] = kDefaultGraphCaptures;
  }
  return row;
}

// One variant of one case, `repeats` whole measurements: the median of their latencies, the CV
// across them, and what each cost.
nlohmann::json measure_variant(DeviceApi& api, const BackendDescriptor& cuda,
                               const std::string& case_name, const Call& call,
                               const Variant& variant, int repeats, double max_time_s,
                               double capture_noise_target) {
  TimerPlan plan = derive_timer_plan(cuda.capabilities, variant.timer, true, cuda.name);
  MeasureOptions options;  // the defaults of `caliber run`'s knobs
  options.op = case_name;
  options.classifier = cuda.classifier;
  options.cache = variant.cache;
  options.flush_method = variant.flush;
  options.sampling.policy = variant.policy;
  options.sampling.max_time_s = max_time_s;
  options.graph.captures = variant.captures;
  options.graph.capture_noise_target = capture_noise_target;
  nlohmann::json row = variant_key(case_name, variant);
  std::vector<double> latencies_us, walls_s, samples, noises, kernel_only_us, spreads;
  std::vector<int> throttled, clock_min_mhz, clock_max_mhz, captures_used, calls_used;
  std::vector<std::string> markers, timers_used;
  nlohmann::json activities = nlohmann::json::array();
  for (int r = 0; r < repeats; ++r) {
    Measurement m = measure(api, plan, options, call);
    latencies_us.push_back(m.latency_ms * 1e3);
    walls_s.push_back(m.wall_s);
    samples.push_back(static_cast<double>(m.samples_ms.size()));
    noises.push_back(m.noise);
    spreads.push_back(m.capture_spread);
    captures_used.push_back(m.graph_captures);
    calls_used.push_back(m.calls_per_sample);
    timers_used.push_back(to_string(m.timer_used));
    throttled.push_back(m.throttled_samples);
    clock_min_mhz.push_back(m.sm_clock_min_mhz);
    clock_max_mhz.push_back(m.sm_clock_max_mhz);
    if (m.activities) {
      kernel_only_us.push_back(m.activities->kernel_us);
      activities.push_back(to_json(*m.activities));
    }
    for (const auto& marker : m.markers) {
      if (std::find(markers.begin(), markers.end(), marker) == markers.end()) {
        markers.push_back(marker);
      }
    }
  }
  row["timer_used"] = timers_used;
  row["repeats_us"] = latencies_us;
  row["median_us"] = median(latencies_us);
  row["cv_pct"] = cv(latencies_us) * 100;
  row["wall_s"] = mean(walls_s);
  row["samples"] = mean(samples);
  row["noise_pct"] = mean(noises) * 100;
  if (variant.timer == Timer::kGraph) {
    row["capture_spread_pct"] = mean(spreads) * 100;
    row["captures_per_repeat"] = captures_used;  // more than asked where the adaptive rule grew
    // Calls per graph: each replay's own start weighs in a call's share as 1 / calls.
    row["calls_per_repeat"] = calls_used;
  }
  row["markers"] = markers;
  // Per repeat: how many samples the throttle guard marked and the SM clock range it read.
  row["throttled_per_repeat"] = throttled;
  row["sm_clock_min_mhz"] = clock_min_mhz;
  row["sm_clock_max_mhz"] = clock_max_mhz;
  if (!kernel_only_us.empty()) {
    // The kernel timer's total sums kernels, memsets and memcpys; ncu profiles kernels only.
    // activities_per_call is the first repeat's (counts are per call and rarely move);
    // activities_per_repeat has every repeat's, kernel_only_us the median over repeats.
    row["activities_per_call"] = activities.front();
    row["activities_per_repeat"] = activities;
    row["kernel_only_repeats_us"] = kernel_only_us;
    row["kernel_only_us"] = median(kernel_only_us);
  }
  return row;
}

int run(int argc, char** argv) {
  CLI::App app{"Validates caliber's timers on one CUDA device"};
  std::string out = "caliber_timers.json";
  int repeats = 5;
  double deadline_s = 300;
  double max_time_s = 0.5;
  std::vector<std::string> only;
  double capture_noise_target = GraphSettings{}.capture_noise_target;
  app.add_option("--out", out, "JSON file to write");
  app.add_option("--repeats", repeats, "whole measurements per variant");
  app.add_option("--deadline-s", deadline_s, "skip what is left after this many seconds");
  app.add_option("--max-time-s", max_time_s, "adaptive policy's time limit per measurement");
  app.add_option("--case", only, "only these cases (repeatable)");
  std::vector<std::string> only_timers;
  app.add_option("--timer", only_timers, "only the variants of these timers (repeatable)");
  app.add_option("--capture-noise-target", capture_noise_target,
                 "adaptive graph timer: add captures while their mean is less precise than this "
                 "(0: never more than asked)");
  CLI11_PARSE(app, argc, argv);

  const BackendDescriptor& cuda = find_backend("--backend", "cuda");
  std::vector<DeviceInfo> devices = cuda.enumerate();
  if (devices.empty()) throw_usage("validate_timers: no CUDA device is visible");
  std::unique_ptr<DeviceApi> api = make_device_api(cuda, 0);
  auto start = std::chrono::steady_clock::now();
  auto elapsed_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  // Inputs for every case up front, so that the passes can come back to a case.
  std::vector<std::pair<std::string, Call>> calls;
  for (const Case& c : validation_cases()) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    calls.emplace_back(c.name, c.build());
  }
  // The cases whose cold numbers issue 22 asks about first.
  const std::vector<std::string> first = {"sum_fp32_16777216", "layer_norm_fp16_4096x4096",
                                          "softmax_fp16_4096x4096", "add_fp32_1048576",
                                          "mm_bf16_4096x4096x4096"};
  std::stable_partition(calls.begin(), calls.end(), [&](const auto& c) {
    return std::find(first.begin(), first.end(), c.first) != first.end();
  });
  nlohmann::json rows = nlohmann::json::array();
  bool device_lost = false;
  for (const auto& variants :
       {first_pass_variants(), second_pass_variants(), capture_pass_variants()}) {
    for (const auto& [name, call] : calls) {
      for (const Variant& variant : variants) {
        if (!only_timers.empty() && std::find(only_timers.begin(), only_timers.end(),
                                              to_string(variant.timer)) == only_timers.end()) {
          continue;
        }
        nlohmann::json row;
        if (device_lost || elapsed_s() > deadline_s) {
          row = variant_key(name, variant);
          row["error"] = device_lost ? "skipped: device lost" : "skipped: deadline";
        } else {
          try {
            row = measure_variant(*api, cuda, name, call, variant, repeats, max_time_s,
                                  capture_noise_target);
          } catch (const std::exception& e) {
            row = variant_key(name, variant);
            row["error"] = e.what();
            auto* error = dynamic_cast<const Error*>(&e);
            device_lost = error != nullptr && error->kind() == ErrorKind::kDeviceFatal;
          }
        }
        std::cerr << row.dump() << "\n";
        rows.push_back(std::move(row));
      }
    }
  }
  nlohmann::json result = {{"device", devices.front().name},
                           {"driver", devices.front().driver_version},
                           {"max_sm_clock_mhz", devices.front().max_sm_clock_mhz},
                           {"repeats", repeats},
                           {"adaptive_max_time_s", max_time_s},
                           {"capture_noise_target", capture_noise_target},
                           {"elapsed_s", elapsed_s()},
                           {"rows", rows}};
  std::ofstream(out) << result.dump(1) << "\n";
  return device_lost ? 3 : 0;
}

}  // namespace
}  // namespace caliber

int main(int argc, char** argv) {
  try {
    return caliber::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "validate_timers: " << e.what() << "\n";
    return 2;
  }
}
