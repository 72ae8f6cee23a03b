#include "batch/slurm_script.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <regex>

#include "core/knobs.h"

namespace caliber {
namespace {

std::string number(double value) { return fmt::format("{:g}", value); }

// The #SBATCH lines both scripts share: where they run and on whose account.
std::string common_directives(const SlurmScriptInput& in) {
  std::string out;
  if (!in.slurm.partition.empty())
    out += fmt::format("#SBATCH --partition={}\n", in.slurm.partition);
  out += fmt::format("#SBATCH --chdir={}\n", in.workdir.string());
  for (const auto& arg : in.slurm.sbatch_args) out += fmt::format("#SBATCH {}\n", arg);
  return out;
}

}  // namespace

std::vector<std::string> shard_batch_args(const BatchOptions& o) {
  std::vector<std::string> args;
  for (const auto& [name, value] : o.knob_flags) {
    if (name == "out_dir") continue;
    args.push_back(knob_def(name).flag);
    args.push_back(value);
  }
  auto add = [&args](const char* flag, const std::string& value) {
    args.push_back(flag);
    args.push_back(value);
  };
  if (!o.selection.ops.empty()) add("--ops", fmt::format("{}", fmt::join(o.selection.ops, ",")));
  if (!o.selection.families.empty()) {
    add("--family", fmt::format("{}", fmt::join(o.selection.families, ",")));
  }
  if (!o.ops_file.empty()) add("--ops-file", o.ops_file);
  if (!o.dismiss_file.empty()) add("--dismiss-file", o.dismiss_file);
  if (!o.use_dismiss_list) args.push_back("--no-dismiss");
  if (o.isolation) add("--isolation", to_string(*o.isolation));
  add("--retries", std::to_string(o.retries));
  if (o.timeout_s > 0) add("--timeout-s", number(o.timeout_s));
  add("--timeout-base-s", number(o.timeout_base_s));
  add("--timeout-per-case-s", number(o.timeout_per_case_s));
  add("--timeout-stretch", number(o.timeout_stretch));
  add("--kill-grace-s", number(o.kill_grace_s));
  add("--worker-max-growth-mib", number(o.worker_max_growth_mib));
  if (!o.longest_first) add("--order", "selection");
  if (!o.costs_from.empty()) add("--costs-from", o.costs_from);
  if (o.force) args.push_back("--force");
  if (o.redo_failed) args.push_back("--redo-failed");
  args.push_back("--no-progress");
  return args;
}

std::string array_script(const SlurmScriptInput& in) {
  const SlurmLayout& l = in.layout;
  std::vector<std::string> quoted;
  for (const auto& a : in.shard_args) quoted.push_back(shell_quote(a));
  std::string gres = in.slurm.gpus_per_node > 0
                         ? fmt::format("#SBATCH --gres=gpu:{}\n", in.slurm.gpus_per_node)
                         : std::string();
  std::string time =
      in.slurm.time_limit.empty() ? "" : fmt::format("#SBATCH --time={}\n", in.slurm.time_limit);
  return fmt::format(
      R"(#!/bin/bash
# caliber batch as a Slurm job array: task i runs shard i of {count} of the op list (the ops whose
# stable hash is i modulo {count}) as an ordinary local batch into {shards}/i/, on the node and
# GPUs Slurm gave it. Written by `caliber batch --launcher slurm`, which submits it with
# `sbatch --array=<shards not yet complete> {script}`; resubmitting resumes each shard.
#SBATCH --job-name=caliber-batch
#SBATCH --nodes=1
#SBATCH --ntasks=1
{gres}{time}#SBATCH --output={logs}/task-%A_%a.out
{common}
shard=${{SLURM_ARRAY_TASK_ID:?submit this script as a job array: sbatch --array=0-{last}}}
# The out directory must be the same on every node (a shared filesystem): refuse early otherwise.
if [ ! -r {plan} ]; then
  echo "caliber: {plan} is not visible on $(hostname): --out must be on a filesystem every node shares" >&2
  exit 2
fi
echo "caliber shard $shard/{count}: job ${{SLURM_JOB_ID:-}} on $(hostname); $(env | grep _VISIBLE_DEVICES | tr '\n' ' ')are the visible devices"
# No device variable is set here: the batch's lanes are the devices Slurm made visible.
exec {binary} batch --shard "$shard/{count}" --out "{shards}/$shard" {args}
)",
      fmt::arg("count", in.slurm.nodes), fmt::arg("shards", (l.out / "shards").string()),
      fmt::arg("script", l.array_script().string()), fmt::arg("gres", gres), fmt::arg("time", time),
      fmt::arg("logs", l.log_dir().string()), fmt::arg("common", common_directives(in)),
      fmt::arg("last", in.slurm.nodes - 1), fmt::arg("plan", shell_quote(l.plan_path().string())),
      fmt::arg("binary", shell_quote(in.binary.string())),
      fmt::arg("args", fmt::join(quoted, " ")));
}

std::string merge_script(const SlurmScriptInput& in) {
  return fmt::format(
      R"(#!/bin/bash
# Merges the shards of a caliber Slurm sweep into one batch directory view (ops_status.csv,
# summary.csv, ops/): submitted with --dependency=afterany on the array, so it runs however the
# tasks ended. `caliber batch --merge {out}` does the same by hand.
#SBATCH --job-name=caliber-merge
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --output={logs}/merge-%j.out
{common}
exec {binary} batch --merge {out_q}
)",
      fmt::arg("out", in.layout.out.string()), fmt::arg("logs", in.layout.log_dir().string()),
      fmt::arg("common", common_directives(in)),
      fmt::arg("binary", shell_quote(in.binary.string())),
      fmt::arg("out_q", shell_quote(in.layout.out.string())));
}

std::string array_ranges(const std::vector<int>& indices) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    parts.push_back(j == i ? std::to_string(indices[i])
                           : fmt::format("{}-{}", indices[i], indices[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

std::string shell_quote(const std::string& text) {
  static const std::regex plain(R"([A-Za-z0-9_@%+=:,./-]+)");
  if (!text.empty() && std::regex_match(text, plain)) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool valid_time_limit(const std::string& text) {
  static const std::regex forms(
      R"(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+|\d+-\d+:\d{1,2}|\d+-\d+:\d{1,2}:\d{1,2})");
  if (text == "UNLIMITED" || text == "unlimited" || text == "INFINITE" || text == "infinite") {
    return true;
  }
  return std::regex_match(text, forms);
}

}  // namespace caliber
