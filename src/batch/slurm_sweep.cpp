#include "batch/slurm_sweep.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/ops_status.h"
#include "core/text_util.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTasksHeader = "array_job_id,task,job_id,state,node,exit_code,source";

std::string read_or_empty(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec) ? read_file(path) : std::string();
}

}  // namespace

std::optional<SweepPlan> read_sweep_plan(const SlurmLayout& layout) {
  std::string text = read_or_empty(layout.plan_path());
  if (text.empty()) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw_usage("{}: not a Slurm sweep plan (unreadable JSON)", layout.plan_path().string());
  }
  SweepPlan p;
  p.shards = j.value("shards", 1);
  p.binary = j.value("binary", "");
  p.workdir = j.value("workdir", "");
  p.shard_args = j.value("shard_args", std::vector<std::string>{});
  p.command_line = j.value("command_line", "");
  p.shard_ops = j.value("shard_ops", std::vector<std::vector<std::string>>{});
  p.shard_to_run = j.value("shard_to_run", std::vector<int>{});
  return p;
}

void write_sweep_plan(const SlurmLayout& layout, const SweepPlan& p) {
  nlohmann::json j = {{"shards", p.shards},
                      {"binary", p.binary},
                      {"workdir", p.workdir},
                      {"shard_args", p.shard_args},
                      {"command_line", p.command_line},
                      {"shard_ops", p.shard_ops},
                      {"shard_to_run", p.shard_to_run}};
  write_file_atomic(layout.plan_path(), j.dump(2) + "\n");
}

std::vector<Submission> read_submissions(const SlurmLayout& layout) {
  std::vector<Submission> out;
  for (const auto& line : split(read_or_empty(layout.submissions_path()), '\n')) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;  // a torn last line of a crash
    Submission s;
    s.array_job_id = j.value("array_job_id", "");
    s.shards = j.value("shards", std::vector<int>{});
    s.merge_job_id = j.value("merge_job_id", "");
    s.time = j.value("time", "");
    if (!s.array_job_id.empty()) out.push_back(std::move(s));
  }
  return out;
}

void append_submission(const SlurmLayout& layout, const Submission& s) {
  nlohmann::json j = {{"array_job_id", s.array_job_id},
                      {"shards", s.shards},
                      {"merge_job_id", s.merge_job_id},
                      {"time", s.time}};
  append_line_durable(layout.submissions_path(), j.dump());
}

std::vector<SlurmTask> read_task_records(const SlurmLayout& layout) {
  std::vector<SlurmTask> out;
  std::vector<std::string> lines = split(read_or_empty(layout.tasks_path()), '\n');
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> f = split(lines[i], ',');
    if (f.size() < 7) continue;
    SlurmTask t;
    t.array_job_id = f[0];
    try {
      t.task = std::stoi(f[1]);
    } catch (const std::exception&) {
      continue;
    }
    t.job_id = f[2];
    t.state = f[3];
    t.node = f[4];
    t.exit_code = f[5];
    t.source = f[6];
    out.push_back(std::move(t));
  }
  return out;
}

void write_task_records(const SlurmLayout& layout, const std::vector<SlurmTask>& tasks) {
  std::string text = std::string(kTasksHeader) + "\n";
  for (const auto& t : tasks) {
    // Node lists of one-node tasks hold no comma; a bracketed list would, so it is quoted away.
    std::string node = t.node.find(',') == std::string::npos ? t.node : "\"" + t.node + "\"";
    text += fmt::format("{},{},{},{},{},{},{}\n", t.array_job_id, t.task, t.job_id, t.state, node,
                        t.exit_code, t.source);
  }
  write_file_atomic(layout.tasks_path(), text);
}

std::map<int, SlurmTask> refresh_tasks(const SlurmLayout& layout, const SlurmClient* client) {
  std::vector<Submission> submissions = read_submissions(layout);
  std::vector<SlurmTask> known = read_task_records(layout);
  if (client != nullptr && !submissions.empty()) {
    std::vector<std::string> ids;
    for (const auto& s : submissions) ids.push_back(s.array_job_id);
    for (const auto& fresh : client->tasks(ids)) {
      bool replaced = false;
      for (auto& k : known) {
        if (k.array_job_id == fresh.array_job_id && k.task == fresh.task) {
          k = fresh;
          replaced = true;
        }
      }
      if (!replaced) known.push_back(fresh);
    }
    write_task_records(layout, known);
  }
  std::map<int, SlurmTask> latest;
  for (const auto& s : submissions) {  // in submission order: later ones win
    for (int shard : s.shards) {
      for (const auto& t : known) {
        if (t.array_job_id == s.array_job_id && t.task == shard) latest[shard] = t;
      }
    }
  }
  return latest;
}

ShardProgress shard_progress(const SlurmLayout& layout, int shard) {
  ShardProgress p;
  fs::path dir = layout.shard_dir(shard);
  std::string status = read_or_empty(dir / "ops_status.csv");
  if (status.empty()) return p;
  p.started = true;
  try {
    for (const auto& row : parse_status_csv(status)) {
      ++p.total;
      if (is_final(row.state)) ++p.done;
    }
  } catch (const Error&) {
    return p;  // being rewritten: it is written atomically, so this is someone else's file
  }
  nlohmann::json identity =
      nlohmann::json::parse(read_or_empty(dir / "batch_identity.json"), nullptr, false);
  if (identity.is_object() && identity.contains("exit") && identity["exit"].is_number_integer()) {
    int code = identity["exit"].get<int>();
    p.complete = (code == 0 || code == 1) && p.done == p.total;
  }
  return p;
}

}  // namespace caliber
