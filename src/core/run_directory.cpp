#include "core/run_directory.h"

#include <chrono>
#include <ctime>

#include "core/atomic_file.h"
#include "core/write_failure.h"

namespace caliber {

RunDirectory::RunDirectory(std::filesystem::path root) : root_(std::move(root)) {
  std::error_code ec;
  std::filesystem::create_directories(root_, ec);
  if (ec) throw_write_failure(root_.string(), ec.value());
}

std::filesystem::path RunDirectory::default_path(const std::filesystem::path& parent,
                                                 const std::string& op) {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  std::filesystem::path base = parent / (std::string(stamp) + "-" + op);
  std::filesystem::path path = base;
  for (int i = 2; std::filesystem::exists(path); ++i) {
    path = base.string() + "-" + std::to_string(i);
  }
  return path;
}

void RunDirectory::write_identity(const RunIdentity& identity) const {
  caliber::write_identity(identity_path().string(), identity);
}

void RunDirectory::write_shapes(const std::string& yaml) const {
  write_file_atomic(shapes_path(), yaml);
}

void RunDirectory::start_results() const {
  std::error_code ec;
  std::filesystem::remove(results_path(), ec);
  if (ec) throw_write_failure(results_path().string(), ec.value());
}

void RunDirectory::start_log(const std::string& text) const {
  write_file_atomic(log_path(), strip_ansi(text));
}

void RunDirectory::append_result(const ResultRow& row) const {
  append_line_durable(results_path(), to_jsonl_line(row));
}

void RunDirectory::append_log(const std::string& text) const {
  append_line_durable(log_path(), strip_ansi(text));
}

std::string strip_ansi(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {
      // CSI sequences: ESC [ parameters final-byte.
      if (i + 1 < text.size() && text[i + 1] == '[') {
        i += 2;
        while (i < text.size() && !(text[i] >= '@' && text[i] <= '~')) ++i;
      }
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace caliber
