#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace caliber {

// One entry of an op list kept as data (ops/dismiss.yaml, ops/capture_deny.yaml). Every entry
// says why it is there and where that was seen, so a list never outlives its reasons silently.
struct OpListEntry {
  std::string op;
  std::string reason;
  std::string verified_on;          // "device/date", e.g. "NVIDIA H200/2026-11-29"
  std::string backend;              // empty: every backend
  std::vector<std::string> dtypes;  // empty: every dtype
  int line = 0;
};

class OpList {
 public:
  // A YAML list of {op, reason, verified_on, [backend], [dtypes]}, or a map with that list under
  // "dismiss" or "ops". An empty file is an empty list; an entry without op or reason is a usage
  // error naming the file, line and entry. The one loader of ops/dismiss.yaml for run, ops and
  // batch (and of ops/capture_deny.yaml).
  static OpList load(const std::filesystem::path& path);
  static OpList parse(const std::string& text, const std::string& name);
  // load's list, parsed once per process while the file is unchanged (a worker's every op asks).
  static std::shared_ptr<const OpList> cached(const std::filesystem::path& path);

  // The entry that covers `op` on `backend` for `dtype` ("" matches dtype-wide entries only).
  const OpListEntry* find(const std::string& op, const std::string& backend,
                          const std::string& dtype = "") const;
  // The entry that dismisses `op` as a whole on `backend`: one that names no dtypes. `caliber
  // run` notes such an op and `caliber batch` sets it aside; an entry narrowed to some dtypes
  // skips those dtypes only, in `caliber ops --verify`.
  const OpListEntry* dismissal(const std::string& op, const std::string& backend) const {
    return find(op, backend);
  }
  const std::vector<OpListEntry>& entries() const { return entries_; }

 private:
  std::vector<OpListEntry> entries_;
};

}  // namespace caliber
