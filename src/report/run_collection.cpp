#include "report/run_collection.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/op_run_dirs.h"
#include "report/flaggems_log.h"

namespace caliber {

namespace fs = std::filesystem;

namespace {

bool is_run_directory(const fs::path& dir) {
  return fs::exists(dir / "results.jsonl") || fs::exists(dir / "run.log") ||
         fs::exists(dir / "run_identity.json");
}

void load_run_directory(const fs::path& dir, RunCollection& out) {
  RunSource source;
  source.path = dir.string();
  if (fs::exists(dir / "run_identity.json")) {
    source.identity = read_identity((dir / "run_identity.json").string());
  }
  std::vector<ResultRow> rows;
  // results.jsonl carries samples; run.log only medians, so it is the fallback.
  if (fs::exists(dir / "results.jsonl")) {
    source.rows_file = "results.jsonl";
    rows = read_results_jsonl((dir / "results.jsonl").string());
  } else if (fs::exists(dir / "run.log")) {
    source.rows_file = "run.log";
    rows = parse_flaggems_log(read_file(dir / "run.log"));
  }
  size_t index = out.sources.size();
  out.sources.push_back(std::move(source));
  for (auto& row : rows) out.rows.push_back({std::move(row), index});
}

}  // namespace

const RunIdentity* RunCollection::identity_for_op(const std::string& op) const {
  for (const auto& r : rows) {
    if (r.row.op == op && sources[r.source].identity) return &*sources[r.source].identity;
  }
  return nullptr;
}

const RunIdentity* RunCollection::any_identity() const {
  for (const auto& s : sources) {
    if (s.identity) return &*s.identity;
  }
  return nullptr;
}

RunCollection load_run_collection(const std::string& path) {
  fs::path root(path);
  if (!fs::is_directory(root)) throw_usage("{}: no such directory", path);
  RunCollection out;
  out.root = path;
  if (is_run_directory(root)) {
    load_run_directory(root, out);
    return out;
  }
  bool is_batch = fs::is_directory(root / "ops") || fs::exists(root / "ops_status.csv");
  if (!is_batch) {
    throw_usage(
        "{}: neither a run directory (results.jsonl, run.log or run_identity.json) nor a batch "
        "directory (ops/, ops_status.csv)",
        path);
  }
  if (fs::is_directory(root / "ops")) {
    std::vector<fs::path> ops;
    for (const auto& entry : fs::directory_iterator(root / "ops")) {
      if (entry.is_directory()) ops.push_back(entry.path());
    }
    std::sort(ops.begin(), ops.end());
    for (const auto& op : ops) {
      for (const auto& dir : final_run_dirs(op)) {
        if (is_run_directory(dir)) load_run_directory(dir, out);
      }
    }
  }
  if (fs::exists(root / "ops_status.csv")) {
    out.op_statuses = read_ops_status((root / "ops_status.csv").string());
  }
  return out;
}

std::string shape_label(const ResultRow& row) {
  if (!row.size_detail.empty()) return row.size_detail;
  if (!row.shape.empty()) {
    std::vector<std::string> parts;
    for (const auto& s : row.shape) parts.push_back(fmt::format("[{}]", fmt::join(s, ", ")));
    return fmt::format("{}", fmt::join(parts, ", "));
  }
  return row.shape_desc;
}

}  // namespace caliber
