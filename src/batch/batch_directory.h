#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/ops_status.h"

namespace caliber {

// The files of one batch directory and the rules for writing them:
//   .lock                  flock'ed while a batch writes here (a second batch is refused)
//   batch.log              one durable line per event
//   batch_identity.json    what was asked for, with which binary, on which host
//   ops_status.csv         one row per selected op, rewritten atomically after each op
//   ops/<op>/              the op's run directory (attempt logs, results.jsonl, ...)
//   ops/<op>/.complete     the op's final status row (JSON), written last and atomically
class BatchDirectory {
 public:
  // Creates the directory and takes its lock; throws a usage error when another batch holds it.
  explicit BatchDirectory(std::filesystem::path root);
  ~BatchDirectory();
  BatchDirectory(const BatchDirectory&) = delete;
  BatchDirectory& operator=(const BatchDirectory&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path op_dir(const std::string& op) const;
  std::filesystem::path status_path() const { return root_ / "ops_status.csv"; }
  std::filesystem::path identity_path() const { return root_ / "batch_identity.json"; }

  std::optional<OpStatus> completed(const std::string& op) const;
  void mark_complete(const OpStatus& status);
  // Forgets an op's marker so that it runs again (--force, --redo-failed).
  void clear_complete(const std::string& op);

  void log(const std::string& line);
  void write_status(const std::vector<OpStatus>& rows);

 private:
  std::filesystem::path root_;
  int lock_fd_ = -1;
  std::mutex log_mutex_;
};

}  // namespace caliber
