#pragma once

#include <filesystem>
#include <string>

#include "core/result_row.h"
#include "core/run_identity.h"

namespace caliber {

// The files of one run, each written so that a crash at any moment leaves every file valid:
// whole files atomically, line files (run.log, results.jsonl) one durable line at a time.
class RunDirectory {
 public:
  explicit RunDirectory(std::filesystem::path root);

  // runs/<UTC timestamp>-<op> under `parent`, made unique if it exists.
  static std::filesystem::path default_path(const std::filesystem::path& parent,
                                            const std::string& op);

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path log_path() const { return root_ / "run.log"; }
  std::filesystem::path results_path() const { return root_ / "results.jsonl"; }
  std::filesystem::path identity_path() const { return root_ / "run_identity.json"; }
  std::filesystem::path shapes_path() const { return root_ / "shapes.yaml"; }

  void write_identity(const RunIdentity& identity) const;
  void write_shapes(const std::string& yaml) const;
  // A run's line files hold that run alone: starting one drops the rows and replaces the log an
  // earlier run left here (a batch's attempt killed at its timeout, a second run into one --out),
  // which the new run's identity would otherwise claim as its own.
  void start_results() const;
  void start_log(const std::string& text) const;
  void append_result(const ResultRow& row) const;
  // Appends text to run.log with every ANSI escape removed.
  void append_log(const std::string& text) const;

 private:
  std::filesystem::path root_;
};

std::string strip_ansi(const std::string& text);

}  // namespace caliber
