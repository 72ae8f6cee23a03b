#include "batch/batch_plan.h"

#include <algorithm>

#include "backend/registry.h"
#include "core/data_paths.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/text_util.h"

namespace caliber {
namespace {

// Knobs the batch decides per child (op, device, output) or consumes itself (the rest).
const std::vector<std::string> kBatchOwnedKnobs = {"op",      "node",        "device",
                                                   "out_dir", "replay_from", "parallel_warmup_gpus",
                                                   "backend", "level",       "dtypes"};

bool batch_owned(const std::string& name) {
  return std::find(kBatchOwnedKnobs.begin(), kBatchOwnedKnobs.end(), name) !=
         kBatchOwnedKnobs.end();
}

std::vector<int> parse_devices(const std::string& text, const BackendDescriptor& backend) {
  std::vector<int> out;
  for (const auto& item : split_nonempty(text, ',')) {
    size_t used = 0;
    int index = -1;
    try {
      index = std::stoi(item, &used);
    } catch (const std::exception&) {
    }
    if (index < 0 || used != item.size()) {
      throw_usage("--devices: '{}' is not accepted (accepted: device indices such as 0,1,2,3)",
                  text);
    }
    if (std::find(out.begin(), out.end(), index) != out.end()) {
      throw_usage("--devices: device {} is listed twice in '{}'", index, text);
    }
    out.push_back(index);
  }
  if (out.empty()) throw_usage("--devices: '{}' names no device (accepted: 0,1,2,3)", text);
  // The host backend has no visibility variable: its lanes are parallel host processes.
  if (!backend.visibility_variable.empty()) {
    for (int index : out) guard_device_present(backend, index);
  }
  return out;
}

std::vector<int> all_devices(const BackendDescriptor& backend) {
  guard_device_present(backend, 0);
  std::vector<int> out;
  for (const auto& device : devices_of(backend)) out.push_back(device.index);
  if (out.empty()) out.push_back(0);
  return out;
}

std::filesystem::path child_binary(const EnvLookup& env) {
  // Hidden, for tests: a stand-in child that mimics `caliber run` outcomes by op name.
  if (auto forced = env("CALIBER_CHILD_BINARY"); forced && !forced->empty()) {
    if (!std::filesystem::exists(*forced)) {
      throw_usage("CALIBER_CHILD_BINARY: '{}' does not exist", *forced);
    }
    return std::filesystem::absolute(*forced);
  }
  return std::filesystem::read_symlink("/proc/self/exe");
}

}  // namespace

const Choice<Isolation>& isolation_choice() {
  static const Choice<Isolation> choice{{"op", Isolation::kOp}, {"worker", Isolation::kWorker}};
  return choice;
}

const std::vector<std::string>& batch_knob_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& def : knob_table()) {
      // `caliber batch --shard I/N` shards the op list (BatchOptions::shard), not an op's cases;
      // --warm-pass, not --warm-only, asks a batch for warm runs.
      if (def.name != "op" && def.name != "node" && def.name != "device" && def.name != "op_file" &&
          def.name != "shard" && def.name != "warm_only") {
        out.push_back(def.name);
      }
    }
    return out;
  }();
  return names;
}

BatchPlan plan_batch(const BatchOptions& options, const EnvLookup& env) {
  BatchPlan plan;
  plan.options = options;
  plan.knobs = resolve_knobs(options.knob_flags, env, batch_knob_names());
  plan.backend = &select_backend(plan.knobs.backend, "--backend (ZL_BACKEND)");
  plan.isolation = options.isolation.value_or(kDefaultIsolation);
  plan.devices = options.devices.empty() ? all_devices(*plan.backend)
                                         : parse_devices(options.devices, *plan.backend);
  if (options.retries < 0)
    throw_usage("--retries: {} (accepted: an integer >= 0)", options.retries);
  plan.out_dir = plan.knobs.out_dir.empty()
                     ? std::filesystem::path(fmt::format("batch-{}-{}", plan.backend->name,
                                                         to_string(plan.knobs.level)))
                     : std::filesystem::path(plan.knobs.out_dir);
  plan.child_binary = child_binary(env);
  if (options.warm_pass < 0 || options.warm_pass > kMaxWarmLanes) {
    throw_usage("--warm-pass: {} is not accepted (accepted: 0 to {} warm lanes)", options.warm_pass,
                kMaxWarmLanes);
  }
  if (options.warm_pass > 0 && plan.knobs.candidate.empty()) {
    throw_usage(
        "--warm-pass: {} needs --candidate (a warm pass calls a candidate's kernels once before "
        "the screen, so that the measured runs find them compiled)",
        options.warm_pass);
  }
  if (!plan.knobs.replay_from.empty() && !std::filesystem::is_directory(plan.knobs.replay_from)) {
    throw_usage("{}: '{}' is not a directory (accepted: an earlier batch's --out)",
                plan.knobs.sources["replay_from"], plan.knobs.replay_from);
  }

  for (const auto& [name, value] : options.knob_flags) {
    if (!batch_owned(name)) plan.child_flags[name] = value;
  }
  plan.child_flags["backend"] = plan.backend->name;
  plan.child_flags["level"] = to_string(plan.knobs.level);
  plan.child_flags["device"] = "0";  // the child sees only its lane's device
  if (!plan.knobs.dtypes.empty()) {
    std::vector<std::string> names;
    for (DType d : plan.knobs.dtypes) names.push_back(dtype_name(d));
    plan.child_flags["dtypes"] = fmt::format("{}", fmt::join(names, ","));
  }
  return plan;
}

BatchPlan warm_pass_plan(const BatchPlan& plan) {
  BatchPlan warm = plan;
  warm.devices.assign(static_cast<size_t>(plan.options.warm_pass), plan.devices.front());
  warm.isolation = Isolation::kWorker;  // a Python candidate's import, once per warm lane
  warm.options.retries = 0;             // a failed warm call costs the measured run a compile
  warm.options.warm_pass = 0;
  warm.options.shard.reset();  // the batch's selection is sharded already
  warm.out_dir = plan.out_dir / "warm";
  warm.child_flags["warm_only"] = "1";
  // FlagGems keeps each autotuned winner in SQLite (libentry.py reads FLAGGEMS_DB_URL at import):
  // winners tuned beside other warm lanes must not reach the measured runs.
  warm.child_env.emplace_back("FLAGGEMS_DB_URL", "sqlite:///:memory:");
  return warm;
}

double op_timeout_s(const BatchOptions& options, int shape_count, size_t dtype_count) {
  if (options.timeout_s > 0) return options.timeout_s;
  int shapes = shape_count > 0 ? shape_count : kUnknownShapeCount;
  return options.timeout_base_s + options.timeout_per_case_s * shapes *
                                      static_cast<double>(std::max<size_t>(dtype_count, 1));
}

SelectionRequest selection_request_of(const BatchOptions& options) {
  SelectionRequest request = options.selection;
  if (!options.ops_file.empty()) {
    for (auto& op : read_ops_file(options.ops_file)) request.ops.push_back(std::move(op));
  }
  return request;
}

OpList dismiss_list_of(const BatchOptions& options) {
  if (!options.use_dismiss_list) return {};
  if (!options.dismiss_file.empty()) return OpList::load(options.dismiss_file);
  if (std::filesystem::exists(default_dismiss_list())) return OpList::load(default_dismiss_list());
  return {};
}

}  // namespace caliber
