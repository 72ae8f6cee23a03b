#include "batch/shard_merge.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "batch/slurm_sweep.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_tree.h"
#include "core/ops_status.h"
#include "core/run_identity.h"
#include "core/text_util.h"

namespace caliber {
namespace {

namespace fs = std::filesystem;

std::string read_or_empty(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec) ? read_file(path) : std::string();
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The first op identity of a shard, in op-name order: the shard's caliber.
std::optional<std::pair<std::string, RunIdentity>> shard_identity(const fs::path& shard_dir) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(shard_dir / "ops", ec)) {
    fs::path file = entry.path() / "run_identity.json";
    if (fs::exists(file, ec)) files.push_back(file);
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    try {
      return std::make_pair(file.parent_path().filename().string(), read_identity(file.string()));
    } catch (const Error&) {
      continue;  // a torn file of a killed run: the next op's will do
    }
  }
  return std::nullopt;
}

void check_same_caliber(const SlurmLayout& layout, int shards) {
  std::optional<int> reference;
  RunIdentity ref_identity;
  std::string ref_op;
  nlohmann::json ref_flags;
  for (int i = 0; i < shards; ++i) {
    fs::path dir = layout.shard_dir(i);
    nlohmann::json batch =
        nlohmann::json::parse(read_or_empty(dir / "batch_identity.json"), nullptr, false);
    auto found = shard_identity(dir);
    if (!found) continue;
    if (!reference) {
      reference = i;
      ref_identity = found->second;
      ref_op = found->first;
      if (batch.is_object()) ref_flags = batch.value("child_flags", nlohmann::json());
      continue;
    }
    std::vector<std::string> details;
    nlohmann::json a = to_json(found->second);
    nlohmann::json b = to_json(ref_identity);
    for (const auto& field :
         identity_differences(found->second, ref_identity, shard_caliber_fields())) {
      details.push_back(fmt::format("{}: {} in shard {} (op {}), {} in shard {} (op {})", field,
                                    a[field].dump(), i, found->first, b[field].dump(), *reference,
                                    ref_op));
    }
    nlohmann::json flags =
        batch.is_object() ? batch.value("child_flags", nlohmann::json()) : nlohmann::json();
    if (!ref_flags.is_null() && !flags.is_null() && flags != ref_flags) {
      details.push_back(fmt::format("knobs: {} in shard {}, {} in shard {}", flags.dump(), i,
                                    ref_flags.dump(), *reference));
    }
    if (!details.empty()) {
      throw_usage(
          "refusing to merge {}: shard {} ({}) was measured with another caliber than shard {}\n"
          "  {}\nnumbers measured differently are not one batch; rerun that shard with the "
          "sweep's knobs (remove {} and resubmit the same command)",
          layout.out.string(), i, dir.string(), *reference, fmt::join(details, "\n  "),
          dir.string());
    }
  }
}

// Replaces out/ops with links into the shards, so that a reader of out/ sees one batch.
void link_ops(const SlurmLayout& layout, const std::vector<std::pair<std::string, int>>& ops) {
  fs::path next = layout.out / "ops.merging";
  fs::path old = layout.out / "ops.replaced";
  std::error_code ec;
  remove_tree(next, ec);
  remove_tree(old, ec);
  fs::create_directories(next);
  for (const auto& [op, shard] : ops) {
    fs::path target = layout.shard_dir(shard) / "ops" / op;
    if (!fs::is_directory(target, ec)) continue;
    fs::create_directory_symlink(fs::path("..") / "shards" / std::to_string(shard) / "ops" / op,
                                 next / op, ec);
    if (ec) throw Error(ErrorKind::kInternal, fmt::format("cannot link {}: {}", op, ec.message()));
  }
  if (fs::exists(layout.out / "ops", ec)) fs::rename(layout.out / "ops", old);
  fs::rename(next, layout.out / "ops");
  remove_tree(old, ec);
}

}  // namespace

SweepMergeLock::SweepMergeLock(const SlurmLayout& layout) {
  fs::path path = layout.slurm_dir() / ".merge.lock";
  fs::create_directories(path.parent_path());
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ >= 0) ::flock(fd_, LOCK_EX);
}

SweepMergeLock::~SweepMergeLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

const std::vector<std::string>& shard_caliber_fields() {
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> out;
    for (const auto& f : number_changing_fields()) {
      if (f != "shape_set" && f != "dtypes") out.push_back(f);
    }
    out.push_back("provider");
    out.push_back("torch_version");
    return out;
  }();
  return fields;
}

const char* const kMergedStatusExtraColumns =
    "shard,node,slurm_array_job_id,slurm_array_task_id,slurm_job_id,slurm_state";

ShardMergeResult merge_shards(const SlurmLayout& layout, const std::map<int, SlurmTask>& tasks) {
  std::optional<SweepPlan> plan = read_sweep_plan(layout);
  int shards = plan ? plan->shards : 0;
  if (!plan) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(layout.out / "shards", ec)) {
      try {
        shards = std::max(shards, std::stoi(entry.path().filename().string()) + 1);
      } catch (const std::exception&) {
      }
    }
  }
  if (shards == 0) {
    throw_usage("--merge: '{}' holds no shards (neither slurm/plan.json nor shards/<i>/)",
                layout.out.string());
  }
  check_same_caliber(layout, shards);

  ShardMergeResult result;
  result.shards = shards;
  std::string csv = fmt::format("{},{}\n", kStatusCsvHeader, kMergedStatusExtraColumns);
  std::vector<std::pair<std::string, int>> linked;
  std::set<std::string> seen;
  nlohmann::json shard_identities = nlohmann::json::array();
  for (int i = 0; i < shards; ++i) {
    fs::path dir = layout.shard_dir(i);
    std::optional<SlurmTask> task;
    if (auto t = tasks.find(i); t != tasks.end()) task = t->second;
    std::vector<OpStatus> rows;
    std::string status_text = read_or_empty(dir / "ops_status.csv");
    if (!status_text.empty()) rows = parse_status_csv(status_text);
    // Planned ops the shard never listed (its task never started) still get a row.
    std::set<std::string> listed;
    for (const auto& r : rows) listed.insert(r.op);
    if (plan && i < static_cast<int>(plan->shard_ops.size())) {
      for (const auto& op : plan->shard_ops[i]) {
        if (listed.count(op)) continue;
        OpStatus missing;
        missing.op = op;
        rows.push_back(missing);
      }
    }
    nlohmann::json batch =
        nlohmann::json::parse(read_or_empty(dir / "batch_identity.json"), nullptr, false);
    shard_identities.push_back(
        {{"shard", i},
         {"batch_identity", batch.is_discarded() ? nullptr : batch},
         {"task", task ? nlohmann::json({{"array_job_id", task->array_job_id},
                                         {"job_id", task->job_id},
                                         {"state", task->state},
                                         {"node", task->node}})
                       : nlohmann::json(nullptr)}});
    for (const auto& row : rows) {
      if (!seen.insert(row.op).second) continue;
      nlohmann::json marker =
          nlohmann::json::parse(read_or_empty(dir / "ops" / row.op / ".complete"), nullptr, false);
      if (!marker.is_object()) marker = nlohmann::json::object();
      std::string status = to_string(row.state);
      std::string error = row.error;
      std::string node = marker.value("node", "");
      std::string array_job = marker.value("slurm_array_job_id", "");
      std::string array_task = marker.value("slurm_array_task_id", "");
      std::string job = marker.value("slurm_job_id", "");
      std::string state;
      if (!is_final(row.state) && task) {
        node = task->node;
        array_job = task->array_job_id;
        array_task = std::to_string(task->task);
        job = task->job_id;
        state = task->state;
        // The task ended without this op: the task's fate, not the op's.
        if (!task_active(task->state) && task->state != "COMPLETED") {
          status = "task_" + lower(task->state);
          error = fmt::format(
              "array task {}_{} (job {}{}) ended {} before this op finished; resubmit the same "
              "command to resume the shard",
              task->array_job_id, task->task, task->job_id,
              task->node.empty() ? "" : " on " + task->node, task->state);
        }
      } else if (!is_final(row.state) && status_text.empty()) {
        status = "not_run";
      }
      ++result.ops;
      ++result.by_status[status];
      if (status != "ok" && status != "dismissed") result.all_ok = false;
      // status_csv's one row, with the status and error replaced by the merged ones.
      OpStatus copy = row;
      copy.error = error;
      std::string line = split(status_csv({copy}), '\n').at(1);
      size_t first = line.find(',');
      size_t second = line.find(',', first + 1);
      line = line.substr(0, first + 1) + csv_field(status) + line.substr(second);
      csv += fmt::format("{},{},{},{},{},{},{}\n", line, i, csv_field(node), array_job, array_task,
                         job, state);
      linked.emplace_back(row.op, i);
    }
  }
  link_ops(layout, linked);
  write_file_atomic(layout.out / "ops_status.csv", csv);

  std::vector<std::string> parts;
  for (const auto& [status, n] : result.by_status) parts.push_back(fmt::format("{} {}", n, status));
  result.summary_line =
      fmt::format("{} op(s) from {} shard(s): {}", result.ops, shards, fmt::join(parts, ", "));
  nlohmann::json identity = {{"launcher", "slurm"},
                             {"harness_version", nullptr},
                             {"merged_at", utc_now_iso8601()},
                             {"merged_on", host_name()},
                             {"command_line", plan ? plan->command_line : ""},
                             {"shards", shards},
                             {"summary", result.summary_line},
                             {"shard_batches", shard_identities}};
  if (auto found = shard_identity(layout.shard_dir(0)); found) {
    identity["harness_version"] = found->second.harness_version;
  }
  write_file_atomic(layout.out / "batch_identity.json", identity.dump(2) + "\n");
  return result;
}

}  // namespace caliber
