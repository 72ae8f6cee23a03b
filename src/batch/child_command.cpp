#include "batch/child_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <initializer_list>

#include "core/text_util.h"

namespace caliber {

FlagValues run_flags(const FlagValues& child_flags, const RunRequest& request) {
  FlagValues flags = child_flags;
  flags["op"] = request.op;
  flags["out_dir"] = request.out_dir.string();
  if (!request.dtypes.empty()) flags["dtypes"] = fmt::format("{}", fmt::join(request.dtypes, ","));
  if (!request.tuner.empty()) flags["tuner"] = request.tuner;
  if (!request.tuner_file.empty()) flags["tuner_file"] = request.tuner_file;
  return flags;
}

std::vector<std::string> run_argv(const std::filesystem::path& binary, const FlagValues& flags,
                                  const std::optional<Shard>& shard) {
  std::vector<std::string> argv = {binary.string(), "run"};
  for (const auto& [name, value] : flags) {
    argv.push_back(knob_def(name).flag);
    argv.push_back(value);
  }
  if (shard) {
    argv.push_back("--shard");
    argv.push_back(fmt::format("{}/{}", shard->index, shard->count));
  }
  return argv;
}

WorkerRequest worker_request(const FlagValues& flags, const RunRequest& request) {
  WorkerRequest out{request.op, request.out_dir.string(), request.log_path.string(), {}};
  for (const auto& [name, value] : flags) {
    if (name != "op" && name != "out_dir") out.flags[name] = value;
  }
  return out;
}

std::vector<std::pair<std::string, std::optional<std::string>>> lane_environment(
    const BackendDescriptor& backend, int device, const EnvLookup& env) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  std::string physical = std::to_string(device);
  if (!backend.visibility_variable.empty()) {
    if (auto narrowed = env(backend.visibility_variable); narrowed && !narrowed->empty()) {
      std::vector<std::string> visible = split_nonempty(*narrowed, ',');
      if (device < static_cast<int>(visible.size())) physical = visible[device];
    }
    out.emplace_back(backend.visibility_variable, physical);
  }
  out.emplace_back("CALIBER_BATCH_DEVICE", std::to_string(device));
  // The batch passes op, device and tuner choices as flags; these names would contradict them.
  for (const char* name : {"OP", "TEST_NODE", "REPLAY_FROM", "PARALLEL_WARMUP_GPUS"}) {
    out.emplace_back(name, std::nullopt);
  }
  return out;
}

}  // namespace caliber
