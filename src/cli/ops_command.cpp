#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "backend/registry.h"
#include "cli/command.h"
#include "cli/ops_parity.h"
#include "cli/run_config.h"
#include "core/data_paths.h"
#include "core/error.h"
#include "core/op_list.h"
#include "engine/device/device_api_factory.h"
#include "engine/device/generic/backend_loader.h"
#include "engine/op_instance.h"
#include "engine/op_shapes.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

struct OpsOptions {
  FlagValues flags;
  std::string family;
  bool as_json = false;
  bool verify = false;
  std::string dismiss_file;
  std::string inventory_dir;
  std::vector<std::string> fidelity_logs;
};

std::vector<const OpDef*> selected_ops(const OpsOptions& o, const Knobs& knobs) {
  std::vector<const OpDef*> out;
  if (!knobs.op.empty()) {
    out.push_back(&find_op(knobs.op));
    return out;
  }
  if (!o.family.empty()) return ops_in_family(family_choice().parse("--family", o.family));
  for (const auto& op : all_ops()) out.push_back(&op);
  return out;
}

std::vector<DType> dtypes_for(const OpDef& op, const Knobs& knobs) {
  if (knobs.dtypes.empty()) return op.dtypes();
  std::vector<DType> out;
  for (DType d : knobs.dtypes) {
    if (op.supports(d)) out.push_back(d);
  }
  return out;
}

std::vector<std::string> dtype_names(const std::vector<DType>& dtypes) {
  std::vector<std::string> out;
  for (DType d : dtypes) out.push_back(dtype_name(d));
  return out;
}

int list_ops(const OpsOptions& o) {
  Knobs knobs =
      resolve_knobs(o.flags, process_env(),
                    {"backend", "level", "dtypes", "shape_mode", "shape_file", "op", "candidate"});
  // The backend only picks the override file; listing needs no device.
  std::string backend = knobs.backend.empty() ? "" : find_backend("--backend", knobs.backend).name;
  ShapeSources sources = shape_sources(knobs, backend);
  nlohmann::json rows = nlohmann::json::array();
  for (const OpDef* op : selected_ops(o, knobs)) {
    ShapeSet set = resolve_op_shapes(*op, sources);
    rows.push_back({{"op", op->name()},
                    {"family", to_string(op->family())},
                    {"dtypes", dtype_names(dtypes_for(*op, knobs))},
                    {"shapes", set.shapes.size()},
                    {"cases_per_dtype", set.cases.size()},
                    {"skipped_shapes", set.skipped},
                    {"shape_key", set.key},
                    {"shape_desc", set.shape_desc},
                    {"flags", op->flag_names()},
                    {"aten", op->aten()},
                    // what a python: candidate's function for the op is called with
                    {"python_fn", op->python_fn() ? to_string(*op->python_fn()) : ""}});
  }
  if (o.as_json) {
    fmt::print("{}\n", rows.dump(2));
    return 0;
  }
  fmt::print("{:<40} {:<10} {:>5} {:<22} {:<30} {}\n", "op", "family", "cases", "shape key",
             "dtypes", "flags");
  for (const auto& r : rows) {
    fmt::print("{:<40} {:<10} {:>5} {:<22} {:<30} {}\n", r["op"].get<std::string>(),
               r["family"].get<std::string>(), r["cases_per_dtype"].get<size_t>(),
               r["shape_key"].get<std::string>(),
               fmt::format("{}", fmt::join(r["dtypes"].get<std::vector<std::string>>(), ",")),
               fmt::format("{}", fmt::join(r["flags"].get<std::vector<std::string>>(), ",")));
  }
  fmt::print("{} ops at level {}\n", rows.size(), to_string(knobs.level));
  return 0;
}

struct Outcome {
  std::string op;
  std::string dtype;
  std::string status;  // verified, failed, dismissed, skipped
  std::string detail;
};

Outcome verify_one(const OpDef& op, DType dtype, const ShapeCase& shape,
                   const InstanceOptions& options) {
  Outcome out{op.name(), dtype_name(dtype), "failed", ""};
  try {
    OpInstance instance = instantiate(op, shape, dtype, options);
    Verification v = instance.verify();
    out.status = v.ok ? "verified" : "failed";
    out.detail = fmt::format("{} {}", shape.label(), v.detail);
  } catch (const std::exception& e) {
    std::string what = e.what();
    out.detail = fmt::format("{} {}", shape.label(), what.substr(0, what.find('\n')));
  }
  return out;
}

int verify_ops(const OpsOptions& o) {
  Knobs knobs = resolve_knobs(o.flags, process_env(),
                              {"backend", "dtypes", "shape_file", "op", "backend_library"});
  const BackendDescriptor& backend = select_backend(knobs.backend, "--backend (ZL_BACKEND)");
  // A backend torch drives only once its package is loaded (torch_musa, torch_npu, ...).
  if (!has_native_device_api(backend)) {
    request_backend_library(knobs.backend_library);
    load_backend(backend, knobs.backend_library);
  }
  guard_device_present(backend, 0);
  OpList dismissed = OpList::load(o.dismiss_file.empty() ? default_dismiss_list()
                                                         : std::filesystem::path(o.dismiss_file));
  InstanceOptions options;
  options.device = backend.torch_device_type == "cpu" ? "cpu" : backend.torch_device_type + ":0";
  // The reference runs on the host in float64, so every backend verifies at the host's small
  // shapes: the first case of each op under shapes/cpu.yaml.
  ShapeSources sources;
  sources.level = Level::kCore;
  sources.shape_file = knobs.shape_file;
  sources.backend = "cpu";

  auto start = std::chrono::steady_clock::now();
  std::vector<Outcome> outcomes;
  for (const OpDef* op : selected_ops(o, knobs)) {
    ShapeSet set = resolve_op_shapes(*op, sources);
    for (DType dtype : dtypes_for(*op, knobs)) {
      if (op->family() == Family::kSelftest) {
        outcomes.push_back({op->name(), dtype_name(dtype), "skipped", "selftest fault op"});
        continue;
      }
      if (const OpListEntry* e = dismissed.find(op->name(), backend.name, dtype_name(dtype))) {
        outcomes.push_back({op->name(), dtype_name(dtype), "dismissed",
                            fmt::format("{} (verified on {})", e->reason, e->verified_on)});
        continue;
      }
      if (set.cases.empty()) {  // the op's shape rule left out every shape of the file
        outcomes.push_back({op->name(), dtype_name(dtype), "skipped",
                            fmt::format("no shape left: {}", fmt::join(set.skipped, "; "))});
        continue;
      }
      outcomes.push_back(verify_one(*op, dtype, set.cases.front(), options));
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::map<std::string, int> counts;
  for (const auto& r : outcomes) ++counts[r.status];
  if (o.as_json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : outcomes) {
      rows.push_back(
          {{"op", r.op}, {"dtype", r.dtype}, {"status", r.status}, {"detail", r.detail}});
    }
    fmt::print("{}\n", nlohmann::json{{"backend", backend.name},
                                      {"device", options.device},
                                      {"seconds", seconds},
                                      {"counts", counts},
                                      {"cases", rows}}
                           .dump(2));
  } else {
    for (const auto& r : outcomes) {
      if (r.status == "verified") continue;
      fmt::print("{:<9} {:<40} {:<9} {}\n", r.status, r.op, r.dtype, r.detail);
    }
    fmt::print("verify on {} ({}): {} verified, {} failed, {} dismissed, {} skipped in {:.1f} s\n",
               backend.name, options.device, counts["verified"], counts["failed"],
               counts["dismissed"], counts["skipped"], seconds);
  }
  return counts["failed"] > 0 ? 1 : 0;
}

}  // namespace

void add_ops_command(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("ops", "List the operator corpus, or verify it against ATen");
  auto options = std::make_shared<OpsOptions>();
  add_knob_options(cmd, options->flags,
                   {"backend", "level", "dtypes", "shape_mode", "shape_file", "op", "candidate",
                    "backend_library"});
  cmd->add_option("--family", options->family,
                  fmt::format("only this family (accepted: {})", family_choice().accepted()));
  cmd->add_flag("--json", options->as_json, "print JSON");
  cmd->add_flag("--verify", options->verify,
                "run every op x dtype once on its first shape and compare with a float64 CPU "
                "reference; exit 1 when any fails");
  cmd->add_option("--dismiss-file", options->dismiss_file,
                  "dismiss list (default: ops/dismiss.yaml)");
  cmd->add_option("--inventory", options->inventory_dir,
                  "FlagGems' benchmark/ folder: each mark of its test_*.py covered, dismissed or "
                  "missing");
  cmd->add_option("--fidelity", options->fidelity_logs,
                  "FlagGems benchmark logs (plain, .gz, .tgz): its printed Size Detail against "
                  "caliber's inputs for the same cases")
      ->expected(1, -1);
  cmd->callback([&action, options] {
    action = [options] {
      if (!options->inventory_dir.empty()) {
        return print_inventory(options->inventory_dir, options->dismiss_file, options->as_json);
      }
      if (!options->fidelity_logs.empty()) {
        return print_fidelity(options->fidelity_logs, options->as_json);
      }
      return options->verify ? verify_ops(*options) : list_ops(*options);
    };
  });
}

}  // namespace caliber
