#include "cli/run_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "backend/registry.h"
#include "backend/timer_plan.h"
#include "cli/command.h"
#include "cli/op_node.h"
#include "cli/status_line.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/op_list.h"
#include "core/process_memory.h"
#include "core/run_directory.h"
#include "core/run_identity.h"
#include "core/version.h"
#include "engine/case_runner.h"
#include "engine/device/device_api_factory.h"
#include "engine/device/generic/device_runtime.h"
#include "engine/device_memory.h"
#include "engine/device_peaks.h"
#include "engine/gemm_tuner.h"
#include "engine/op_registry.h"
#include "engine/op_shapes.h"
#include "engine/provider/provider.h"
#include "engine/torch_runtime.h"
#include "report/flaggems_table.h"
#include "report/terminal_table.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

// clang-format off
const std::vector<std::string> kRunKnobs = {
    "backend", "level", "dtypes", "shape_mode", "shape_file", "op", "node", "timer",
    "enable_graph", "cache", "policy", "return_mode", "quantiles", "repeat", "warmup_ms", "rep_ms",
    "noise_target", "min_samples", "min_time_s", "max_time_s", "throttle_fraction", "flush_mb",
    "tuner", "tuner_file", "isolate_tuner_cache", "use_flagtune", "device", "out_dir", "candidate",
    "shard", "device_api", "backend_library"};
// clang-format on

// Everything validated before the first device call, so bad input costs nothing.
struct RunPlan {
  Knobs knobs;
  const BackendDescriptor* backend = nullptr;
  DeviceInfo device;
  DeviceRuntime runtime;
  TimerPlan timers;
  const OpDef* op = nullptr;
  std::vector<DType> dtypes;
  ShapeSet shapes;
  std::vector<size_t> case_indices;  // after --shard
  bool capture_denied = false;
  std::string dismissed_reason;
  fs::path out;
  std::string tuner_file;
};

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

RunPlan plan_run(const FlagValues& flags, const EnvLookup& env) {
  RunPlan p;
  p.knobs = resolve_knobs(flags, env, kRunKnobs);
  const Knobs& k = p.knobs;
  std::string op_name = resolve_op_node(k.op, k.node);
  // Named as the user gave it: --op, OP, --node or TEST_NODE.
  p.op = &find_op(op_name, k.sources.at(k.node.empty() ? "op" : "node"));
  p.backend = &select_backend(k.backend, "--backend (ZL_BACKEND)");
  p.dtypes = resolve_dtypes(k, *p.op);
  p.shapes = resolve_op_shapes(*p.op, shape_sources(k, p.backend->name));
  p.case_indices = shard_cases(k.shard, p.shapes.cases.size());
  // The generic path loads the backend and probes the device here: its timers follow from what
  // the runtime offers.
  p.runtime = resolve_device_runtime(*p.backend, k.device_api, k.backend_library, k.device);
  p.timers = plan_device_timers(p.runtime, *p.backend, k.timer, k.enable_graph);
  if (k.cache == CacheState::kCold && !p.timers.l2_flush) {
    throw_usage("--cache: 'cold' needs a cache flush, which backend {} lacks (accepted: hot)",
                p.backend->name);
  }
  OpList deny = OpList::load(default_capture_deny_list());
  OpList dismiss = OpList::load(default_dismiss_list());
  p.capture_denied = deny.find(p.op->name(), p.backend->name) != nullptr;
  if (const OpListEntry* e = dismiss.find(p.op->name(), p.backend->name)) {
    p.dismissed_reason = e->reason;
  }
  p.out =
      k.out_dir.empty() ? RunDirectory::default_path("runs", p.op->name()) : fs::path(k.out_dir);
  if (k.tuner != TunerMode::kOff) {
    if (!k.tuner_file.empty()) {
      p.tuner_file = k.tuner_file;
    } else if (k.tuner == TunerMode::kReplay) {
      throw_usage("--tuner-file: replay needs the results file of a --tuner record run");
    } else {
      p.tuner_file = k.isolate_tuner_cache ? (p.out / "tunableop_results.csv").string()
                                           : "tunableop_results.csv";
    }
  }
  // Checked here, before the run directory exists: a refused tuner must leave nothing behind.
  check_gemm_tuner(k.tuner, p.tuner_file, p.backend->torch_device_type);
  // The device guard comes last: everything above is checked without touching a device.
  guard_device_present(*p.backend, k.device);
  p.device = devices_of(*p.backend).at(static_cast<size_t>(k.device));
  return p;
}

std::string torch_device_of(const RunPlan& p) {
  if (p.backend->torch_device_type == "cpu") return "cpu";
  return fmt::format("{}:{}", p.backend->torch_device_type, p.knobs.device);
}

RunIdentity identity_of(const RunPlan& p, const std::string& provider_version,
                        const std::string& command_line) {
  RunIdentity id;
  id.backend = p.backend->name;
  id.device_model = p.device.name;
  id.device_index = p.knobs.device;
  id.driver_version = p.device.driver_version;
  id.runtime_version = p.backend->name == "cuda" ? torch_cuda_runtime_version() : "";
  id.torch_version = torch_version();
  id.timer = to_string(p.timers.primary);
  id.cache = cache_caliber(p.knobs.cache, p.knobs.flush_mb);
  id.repeat = p.knobs.repeat;
  id.policy = to_string(p.knobs.policy);
  id.level = to_string(p.knobs.level);
  id.shape_mode = to_string(p.knobs.shape_mode);
  id.shape_set = p.shapes.digest();
  id.tuner_mode = to_string(p.knobs.tuner);
  id.tuner_file = p.tuner_file;
  id.provider = p.knobs.candidate.empty() ? "baseline" : p.knobs.candidate;
  id.provider_version = provider_version;
  id.op_node = p.knobs.node.empty() ? p.op->name() : p.knobs.node;
  for (DType d : p.dtypes) id.dtypes.push_back(dtype_name(d));
  id.harness_version = harness_version();
  id.host = host_name();
  id.command_line = command_line;
  id.start_time = utc_now_iso8601();
  if (p.runtime.generic) id.device_api = "generic";
  id.device_runtime = p.runtime.record;
  return id;
}

std::string banner(const RunPlan& p, const RunIdentity& id) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("caliber run {}  harness {}  torch {}  started {}", id.op_node,
                              id.harness_version, id.torch_version, id.start_time));
  lines.push_back(fmt::format("  device: {} [{}] {} ({})", p.backend->name, p.knobs.device,
                              p.device.name, p.device.driver_version));
  std::string fallback = p.timers.fallback ? to_string(*p.timers.fallback) : "none";
  lines.push_back(fmt::format("  timer: {} (requested {}, fallback {}){}", id.timer,
                              to_string(p.knobs.timer), fallback,
                              p.capture_denied ? "  capture denied for this op" : ""));
  if (p.runtime.generic) {
    std::vector<std::string> features;
    for (const auto& [key, value] : p.runtime.record) {
      features.push_back(fmt::format("{}={}", key, value));
    }
    lines.push_back(fmt::format("  device api: generic  {}", fmt::join(features, "  ")));
  }
  lines.push_back(fmt::format("  level: {}  shapes: {} cases from {} (key {})  shape_set {}",
                              id.level, p.case_indices.size(), p.shapes.source, p.shapes.key,
                              id.shape_set));
  if (!p.shapes.skipped.empty()) {
    lines.push_back(fmt::format("  skipped shapes: {}", fmt::join(p.shapes.skipped, "; ")));
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
  if (!p.dismissed_reason.empty()) {
    lines.push_back(
        fmt::format("  note: {} is on the dismiss list: {}", p.op->name(), p.dismissed_reason));
  }
  return fmt::format("{}\n", fmt::join(lines, "\n"));
}

std::vector<std::string> distinct_markers(const std::vector<ResultRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) {
    for (const auto& m : r.markers) {
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
  }
  return out;
}

bool use_color() { return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr; }

int run_planned(RunPlan& p, const std::string& command_line, bool progress) {
  auto started = std::chrono::steady_clock::now();
  std::unique_ptr<Provider> candidate;
  if (!p.knobs.candidate.empty()) candidate = make_provider(p.knobs.candidate);
  RunDirectory dir(p.out);
  RunIdentity identity = identity_of(p, candidate ? candidate->version() : "", command_line);
  dir.write_identity(identity);
  dir.write_shapes(p.shapes.to_yaml());
  std::string head = banner(p, identity);
  dir.append_log(head);
  fmt::print("{}", head);
  std::fflush(stdout);

  auto device = make_device_api(*p.backend, p.knobs.device, p.runtime.generic);
  std::string torch_device = torch_device_of(p);
  initialize_device_allocator(torch_device);
  fs::path peaks_file = std::getenv("CALIBER_PEAKS_FILE") != nullptr
                            ? fs::path(std::getenv("CALIBER_PEAKS_FILE"))
                            : dir.root() / "device_peaks.json";
  DevicePeaks peaks = load_or_measure_peaks(*device, torch_device, p.device.name, peaks_file);
  // After the peaks: their 8192^3 probe product must not enter the tuner's records.
  configure_gemm_tuner(p.knobs.tuner, p.tuner_file, p.backend->torch_device_type);

  CaseRunner::Setup setup;
  setup.backend = p.backend;
  setup.device_index = p.knobs.device;
  setup.torch_device = torch_device;
  setup.plan = p.timers;
  setup.measure =
      measure_options_from_knobs(p.knobs, p.op->name(), p.backend->classifier, p.capture_denied);
  setup.peaks = peaks;
  const char* state = std::getenv("CALIBER_SELFTEST_STATE");
  setup.state_dir = state != nullptr ? state : dir.root().string();
  setup.candidate = candidate.get();
  CaseRunner runner(*p.op, *device, setup);

  StatusLine bar(progress && isatty(STDERR_FILENO));
  size_t total = p.dtypes.size() * p.case_indices.size();
  size_t done = 0;
  int failed = 0;
  int rows_written = 0;
  int exit_code = 0;
  std::string fatal;
  for (DType dtype : p.dtypes) {
    std::vector<ResultRow> dtype_rows;
    for (size_t index : p.case_indices) {
      if (runner.stopped()) break;
      const ShapeCase& shape = p.shapes.cases[index];
      bar.update(fmt::format("{} {} {}/{}  {}", p.op->name(), dtype_name(dtype), done + 1, total,
                             shape.label()));
      std::vector<ResultRow> rows;
      try {
        rows = runner.run_case(shape, dtype, p.shapes.shape_desc);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::kDeviceFatal) throw;
        ResultRow row = runner.case_row(shape, dtype, p.shapes.shape_desc);
        row.status = "FAILED";
        row.error = error_summary(e.what());
        row.markers.push_back("DEVICE_FATAL");
        rows.push_back(row);
        fatal = e.what();
      }
      for (const auto& row : rows) {
        dir.append_result(row);
        ++rows_written;
        if (row.status == "FAILED") ++failed;
      }
      dtype_rows.insert(dtype_rows.end(), rows.begin(), rows.end());
      ++done;
      if (!fatal.empty()) break;
    }
    bar.clear();
    TableHeading heading{p.op->name(), dtype_name(dtype), to_string(p.timers.primary),
                         to_string(p.knobs.level)};
    auto lines = table_lines(dtype_rows);
    bool with_tflops = std::any_of(dtype_rows.begin(), dtype_rows.end(),
                                   [](const ResultRow& r) { return r.tflops > 0; });
    dir.append_log(flaggems_table(heading, lines, with_tflops));
    fmt::print("\n{}", terminal_table(heading, lines, distinct_markers(dtype_rows),
                                      {.color = use_color()}));
    std::fflush(stdout);
    release_cached_device_memory(p.backend->torch_device_type);
    if (!fatal.empty()) break;
  }
  if (!fatal.empty()) {
    exit_code = 3;
  } else if (failed > 0) {
    exit_code = 1;
  }
  identity.end_time = utc_now_iso8601();
  dir.write_identity(identity);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // A worker runs op after op in one process: these figures, op by op, show whether a sweep
  // grows host or device memory.
  const DeviceMemoryUse held = device_memory_in_use(p.backend->torch_device_type, p.knobs.device);
  std::string tail = fmt::format(
      "caliber run end {}: {} rows, {} failed, wall {:.1f} s, exit {}{}\n"
      "  memory after the run: host rss {:.1f} MiB, device allocated {:.1f} MiB, reserved {:.1f} "
      "MiB (pid {})\n  artifacts: {}\n",
      identity.end_time, rows_written, failed, wall, exit_code,
      fatal.empty() ? "" : "  DEVICE FATAL: " + error_summary(fatal),
      static_cast<double>(resident_set_bytes().value_or(0)) / kMiB,
      static_cast<double>(held.allocated_bytes) / kMiB,
      static_cast<double>(held.reserved_bytes) / kMiB, getpid(), dir.root().string());
  dir.append_log(tail);
  fmt::print("\n{}", tail);
  return exit_code;
}

std::string joined_command_line(const FlagValues& flags) {
  std::string out = "caliber run";
  for (const auto& [name, value] : flags) out += fmt::format(" {} {}", knob_def(name).flag, value);
  return out;
}

}  // namespace

int execute_run(const FlagValues& flags, const EnvLookup& env) {
  RunPlan plan = plan_run(flags, env);
  return run_planned(plan, joined_command_line(flags), true);
}

void add_run_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("run", "Benchmark one operator: every shape and dtype");
  auto flags = std::make_shared<FlagValues>();
  auto no_progress = std::make_shared<bool>(false);
  add_knob_options(cmd, *flags, kRunKnobs);
  cmd->add_flag("--no-progress", *no_progress, "no progress line");
  cmd->callback([&action, flags, no_progress] {
    action = [flags, no_progress] {
      RunPlan plan = plan_run(*flags, process_env());
      return run_planned(plan, joined_command_line(*flags), !*no_progress);
    };
  });
}

}  // namespace caliber
