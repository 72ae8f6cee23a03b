#include "cli/run_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <utility>

#include "backend/registry.h"
#include "cli/op_node.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/op_list.h"
#include "core/run_directory.h"
#include "core/version.h"
#include "engine/device/device_context.h"
#include "engine/op_shapes.h"
#include "engine/provider/candidate_checkout.h"
#include "engine/provider/file_digest.h"
#include "engine/torch_runtime.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

// clang-format off
const std::vector<std::string> kRunKnobs = {
    "backend", "level", "dtypes", "shape_mode", "shape_file", "op", "node", "timer",
    "enable_graph", "cache", "policy", "return_mode", "quantiles", "repeat", "warmup_ms", "rep_ms",
    "noise_target", "min_samples", "min_time_s", "max_time_s", "throttle_fraction", "flush_mb",
    "flush_method", "selftest_delay", "graph_captures", "graph_upload", "graph_warm_each", "tuner",
    "tuner_file", "isolate_tuner_cache", "use_flagtune", "device", "out_dir", "candidate", "shard",
    "record", "metrics", "op_file", "device_api", "backend_library", "warm_only"};
// clang-format on

std::vector<DType> resolve_dtypes(const Knobs& knobs, const OpDef& op) {
  if (knobs.dtypes.empty()) return op.dtypes();
  for (DType d : knobs.dtypes) {
    if (!op.supports(d)) {
      std::vector<std::string> names;
      for (DType s : op.dtypes()) names.push_back(dtype_name(s));
      throw_usage("--dtypes: '{}' is not supported by {} (supported: {})", dtype_name(d), op.name(),
                  fmt::join(names, ", "));
    }
  }
  return knobs.dtypes;
}

std::vector<size_t> shard_cases(const std::string& shard, size_t count) {
  std::vector<size_t> out;
  size_t index = 0;
  size_t total = 1;
  if (!shard.empty()) {
    auto slash = shard.find('/');
    try {
      if (slash == std::string::npos) throw std::invalid_argument("no slash");
      index = std::stoul(shard.substr(0, slash));
      total = std::stoul(shard.substr(slash + 1));
    } catch (const std::exception&) {
      total = 0;
    }
    if (total == 0 || index >= total) {
      throw_usage("--shard: '{}' is not accepted (accepted: I/N with 0 <= I < N)", shard);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    if (i % total == index) out.push_back(i);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& run_knob_names() { return kRunKnobs; }

RunPlan plan_run(const FlagValues& flags, const EnvLookup& env) {
  RunPlan p;
  p.knobs = resolve_knobs(flags, env, kRunKnobs);
  const Knobs& k = p.knobs;
  std::string op_name = resolve_op_node(k.op, k.node);
  // Named as the user gave it: --op, OP, --node or TEST_NODE.
  p.config.op = &find_op(op_name, k.sources.at(k.node.empty() ? "op" : "node"));
  p.config.backend = &select_backend(k.backend, "--backend (ZL_BACKEND)");
  p.config.dtypes = resolve_dtypes(k, *p.config.op);
  p.candidate_env = plan_candidate_environment(k, p.config.backend->name, env);
  p.config.shapes = resolve_op_shapes(*p.config.op, shape_sources(k, p.config.backend->name));
  p.config.case_indices = shard_cases(k.shard, p.config.shapes.cases.size());
  // The generic path loads the backend and probes the device here: its timers follow from what
  // the runtime offers.
  p.device_api =
      resolve_device_api_plan(*p.config.backend, k.device_api, k.backend_library, k.device);
  p.config.generic_device_api = p.device_api.generic;
  p.config.timers = plan_device_timers(p.device_api, *p.config.backend, k.timer, k.enable_graph);
  check_cache_state(p.config.timers, k.cache, p.config.backend->name);
  check_selftest_delay(p.config.timers, k.selftest_delay, p.config.backend->name);
  auto deny = OpList::cached(default_capture_deny_list());
  auto dismiss = OpList::cached(default_dismiss_list());
  p.capture_denied = deny->find(p.config.op->name(), p.config.backend->name) != nullptr;
  if (const OpListEntry* e = dismiss->dismissal(p.config.op->name(), p.config.backend->name)) {
    p.dismissed_reason = e->reason;
  }
  p.out = k.out_dir.empty() ? RunDirectory::default_path("runs", p.config.op->name())
                            : fs::path(k.out_dir);
  p.candidate = k.candidate;
  if (k.tuner != TunerMode::kOff) {
    if (!k.tuner_file.empty()) {
      p.config.tuner_file = k.tuner_file;
    } else if (k.tuner == TunerMode::kReplay) {
      throw_usage("--tuner-file: replay needs the results file of a --tuner record run");
    } else {
      p.config.tuner_file = k.isolate_tuner_cache ? (p.out / "tunableop_results.csv").string()
                                                  : "tunableop_results.csv";
    }
  }
  // Checked here, before the run directory exists: a refused tuner must leave nothing behind.
  check_gemm_tuner(k.tuner, p.config.tuner_file, *p.config.backend);
  // The device guard comes last: everything above is checked without touching a device.
  guard_device_present(*p.config.backend, k.device);
  p.config.device = devices_of(*p.config.backend).at(static_cast<size_t>(k.device));
  p.config.device_index = k.device;
  p.config.measure = measure_options_from_knobs(k, p.config.op->name(),
                                                p.config.backend->classifier, p.capture_denied);
  p.config.level = to_string(k.level);
  p.config.tuner = k.tuner;
  const char* peaks = std::getenv("CALIBER_PEAKS_FILE");
  p.config.peaks_file = peaks != nullptr ? fs::path(peaks) : p.out / "device_peaks.json";
  const char* state = std::getenv("CALIBER_SELFTEST_STATE");
  p.config.state_dir = state != nullptr ? state : p.out.string();
  const char* fresh = std::getenv("CALIBER_FRESH_DEVICE_CONTEXT");
  p.config.fresh_device_context = fresh != nullptr && std::string(fresh) == "1";
  p.config.warm_only = k.warm_only;
  p.config.artifacts = p.out;
  return p;
}

RunIdentity identity_of(const RunPlan& p, const std::string& provider_version,
                        const std::string& command_line) {
  RunIdentity id;
  id.backend = p.config.backend->name;
  id.device_model = p.config.device.name;
  id.device_index = p.knobs.device;
  id.driver_version = p.config.device.driver_version;
  id.runtime_version = device_runtime_version(*p.config.backend);
  id.torch_version = torch_version();
  id.timer = to_string(p.config.timers.primary);
  id.cache = cache_caliber(p.knobs.cache, p.knobs.flush_mb, p.knobs.flush_method);
  if (p.knobs.cache == CacheState::kCold) id.flush_method = to_string(p.knobs.flush_method);
  id.graph_captures = p.knobs.graph_captures;
  id.graph_upload = p.knobs.graph_upload;
  id.graph_warm_each = p.knobs.graph_warm_each;
  if (p.knobs.selftest_delay > 0) id.selftest_delay = fmt::format("{:g}", p.knobs.selftest_delay);
  id.repeat = p.knobs.repeat;
  id.policy = to_string(p.knobs.policy);
  id.level = to_string(p.knobs.level);
  id.shape_mode = p.knobs.shape_upstream ? "upstream" : to_string(p.knobs.shape_mode);
  id.shape_set = p.config.shapes.digest();
  id.shape_source = p.config.shapes.source;
  if (fs::is_regular_file(p.config.shapes.source)) {
    id.shape_source_sha256 = sha256_of_file(p.config.shapes.source);
  }
  id.use_flagtune = p.candidate_env.use_flagtune;
  id.gems_vendor = p.candidate_env.gems_vendor;
  id.gems_vendor_source = p.candidate_env.gems_vendor_source;
  id.candidate_caches = p.candidate_env.caches;
  id.tuner_mode = to_string(p.knobs.tuner);
  id.tuner_file = p.config.tuner_file;
  id.provider = p.knobs.candidate.empty() ? "baseline" : p.knobs.candidate;
  id.provider_version = provider_version;
  id.op_node = p.knobs.node.empty() ? p.config.op->name() : p.knobs.node;
  for (DType d : p.config.dtypes) id.dtypes.push_back(dtype_name(d));
  id.harness_version = harness_version();
  id.host = host_name();
  id.command_line = command_line;
  id.start_time = utc_now_iso8601();
  if (p.device_api.generic) id.device_api = "generic";
  id.device_runtime = p.device_api.record;
  return id;
}

std::string run_banner(const RunPlan& p, const RunIdentity& id) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("caliber run {}  harness {}  torch {}  started {}", id.op_node,
                              id.harness_version, id.torch_version, id.start_time));
  lines.push_back(fmt::format("  device: {} [{}] {} ({})", p.config.backend->name, p.knobs.device,
                              p.config.device.name, p.config.device.driver_version));
  std::string fallback = p.config.timers.fallback ? to_string(*p.config.timers.fallback) : "none";
  lines.push_back(fmt::format("  timer: {} (requested {}, fallback {}){}", id.timer,
                              to_string(p.knobs.timer), fallback,
                              p.capture_denied ? "  capture denied for this op" : ""));
  if (p.device_api.generic) {
    std::vector<std::string> features;
    for (const auto& [key, value] : p.device_api.record) {
      features.push_back(fmt::format("{}={}", key, value));
    }
    lines.push_back(fmt::format("  device api: generic  {}", fmt::join(features, "  ")));
  }
  lines.push_back(fmt::format("  level: {}  shapes: {} cases from {} (key {})  shape_set {}",
                              id.level, p.config.case_indices.size(), p.config.shapes.source,
                              p.config.shapes.key, id.shape_set));
  if (!p.config.shapes.skipped.empty()) {
    lines.push_back(fmt::format("  skipped shapes: {}", fmt::join(p.config.shapes.skipped, "; ")));
  }
  std::vector<std::string> knobs;
  for (const auto& name : kRunKnobs) {
    auto it = p.knobs.sources.find(name);
    if (it != p.knobs.sources.end() && it->second != "default") {
      knobs.push_back(fmt::format("{}({})", name, it->second));
    }
  }
  lines.push_back(fmt::format(
      "  caliber: cache={} policy={} warmup_ms={} rep_ms={} noise_target={} repeat={} "
      "return_mode={} tuner={} dtypes={} provider={}",
      id.cache, id.policy, p.knobs.warmup_ms, p.knobs.rep_ms, p.knobs.noise_target, id.repeat,
      to_string(p.knobs.return_mode), id.tuner_mode, fmt::join(id.dtypes, ","), id.provider));
  if (!knobs.empty()) lines.push_back(fmt::format("  set by: {}", fmt::join(knobs, " ")));
  for (const auto& [name, state] : id.candidate_caches) {
    lines.push_back(fmt::format("  candidate cache {}: {}", name, state));
  }
  if (p.config.warm_only) {
    lines.push_back(
        "  warm only: each case's inputs and one untimed call of the candidate, no rows (a warm "
        "pass of caliber batch --warm-pass)");
  }
  if (!p.dismissed_reason.empty()) {
    lines.push_back(fmt::format("  note: {} is on the dismiss list: {}", p.config.op->name(),
                                p.dismissed_reason));
  }
  return fmt::format("{}\n", fmt::join(lines, "\n"));
}

MeasureOptions measure_options_from_knobs(const Knobs& knobs, std::string op,
                                          FailureClassifier classifier, bool capture_denied) {
  MeasureOptions options;
  options.op = std::move(op);
  options.classifier = std::move(classifier);
  options.capture_denied = capture_denied;
  options.cache = knobs.cache;
  options.flush_mb = knobs.flush_mb;
  options.flush_method = knobs.flush_method;
  options.selftest_delay = knobs.selftest_delay;
  options.sampling = SamplingSettings{.policy = knobs.policy,
                                      .warmup_ms = knobs.warmup_ms,
                                      .rep_ms = knobs.rep_ms,
                                      .noise_target = knobs.noise_target,
                                      .min_samples = knobs.min_samples,
                                      .min_time_s = knobs.min_time_s,
                                      .max_time_s = knobs.max_time_s};
  options.return_mode = knobs.return_mode;
  options.quantiles = knobs.quantiles;
  options.repeat = knobs.repeat;
  options.throttle_fraction = knobs.throttle_fraction;
  options.graph.warmup_ms = knobs.warmup_ms;
  options.graph.captures = knobs.graph_captures;
  options.graph.upload = knobs.graph_upload;
  options.graph.warm_each = knobs.graph_warm_each;
  return options;
}

ShapeSources shape_sources(const Knobs& knobs, const std::string& backend) {
  ShapeSources sources;
  sources.level = knobs.level;
  sources.mode = knobs.shape_mode;
  sources.shape_file = knobs.shape_file;
  sources.backend = backend;
  if (knobs.shape_upstream) {
    fs::path checkout = candidate_checkout(knobs.candidate);
    sources.dir = checkout / "benchmark";
    // FlagGems' --shape_file names files of its checkout (benchmark/models_shapes/qwen25.yaml).
    if (!sources.shape_file.empty() && !fs::exists(sources.shape_file)) {
      for (const auto& base : {checkout / "benchmark", checkout}) {
        if (fs::exists(base / sources.shape_file)) {
          sources.shape_file = (base / sources.shape_file).string();
          break;
        }
      }
    }
  }
  return sources;
}

}  // namespace caliber
