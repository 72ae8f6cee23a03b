#include "batch/batch_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/run_identity.h"
#include "core/text_util.h"

namespace caliber {
namespace {

constexpr const char* kCompleteMarker = ".complete";

}  // namespace

BatchDirectory::BatchDirectory(std::filesystem::path root) : root_(std::move(root)) {
  std::error_code ec;
  std::filesystem::create_directories(root_, ec);
  if (ec) throw_usage("--out: cannot create '{}': {}", root_.string(), ec.message());
  std::filesystem::path lock_path = root_ / ".lock";
  // O_CLOEXEC: a child (or an orphaned grandchild) must not keep the lock after we are gone.
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) {
    throw_usage("--out: cannot open '{}': {}", lock_path.string(), std::strerror(errno));
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    std::string holder = trim(read_file(lock_path));
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw_usage(
        "--out: '{}' is being written by another batch ({}); wait for it or choose "
        "another --out",
        root_.string(), holder.empty() ? "pid unknown" : holder);
  }
  std::string holder = fmt::format("pid {} on {}\n", ::getpid(), host_name());
  if (::ftruncate(lock_fd_, 0) == 0) {
    [[maybe_unused]] ssize_t n = ::pwrite(lock_fd_, holder.data(), holder.size(), 0);
  }
}

BatchDirectory::~BatchDirectory() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing releases the flock
}

std::filesystem::path BatchDirectory::op_dir(const std::string& op) const {
  return root_ / "ops" / op;
}

std::optional<OpStatus> BatchDirectory::completed(const std::string& op) const {
  std::filesystem::path marker = op_dir(op) / kCompleteMarker;
  if (!std::filesystem::exists(marker)) return std::nullopt;
  nlohmann::json json = nlohmann::json::parse(read_file(marker), nullptr, false);
  // A marker is written atomically, so an unreadable one was not written by us: redo the op.
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  try {
    OpStatus status = op_status_from_json(json);
    if (status.op != op || !is_final(status.state)) return std::nullopt;
    return status;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void BatchDirectory::mark_complete(const OpStatus& status) {
  write_file_atomic(op_dir(status.op) / kCompleteMarker, to_json(status).dump(2) + "\n");
}

void BatchDirectory::clear_complete(const std::string& op) {
  std::error_code ec;
  std::filesystem::remove(op_dir(op) / kCompleteMarker, ec);
}

void BatchDirectory::log(const std::string& line) {
  std::lock_guard<std::mutex> lock(log_mutex_);
  append_line_durable(root_ / "batch.log", fmt::format("{} {}", utc_now_iso8601(), line));
}

void BatchDirectory::write_status(const std::vector<OpStatus>& rows) {
  write_file_atomic(status_path(), status_csv(rows));
}

}  // namespace caliber
