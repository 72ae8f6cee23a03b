#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/write_failure.h"

namespace caliber {
namespace {

// Every failure names `target`, the file the caller meant to write, not the temporary beside it.
void write_all(int fd, std::string_view content, const std::filesystem::path& target) {
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_write_failure(target.string(), errno);
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
}

void create_parent(const std::filesystem::path& path) {
  if (!path.has_parent_path()) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw_write_failure(path.parent_path().string(), ec.value());
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  create_parent(path);
  std::string temp = path.string() + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_write_failure(path.string(), errno);
  try {
    write_all(fd, content, path);
    // A full disk can show only here (delayed allocation): the old file must then stay.
    if (::fsync(fd) != 0 && errno != EINVAL) throw_write_failure(path.string(), errno);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    throw_write_failure(path.string(), err);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    throw_write_failure(path.string(), err);
  }
}

void append_line_durable(const std::filesystem::path& path, std::string_view line) {
  create_parent(path);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw_write_failure(path.string(), errno);
  std::string text(line);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  off_t before = ::lseek(fd, 0, SEEK_END);
  try {
    write_all(fd, text, path);
    if (::fdatasync(fd) != 0 && errno != EINVAL) throw_write_failure(path.string(), errno);
  } catch (...) {
    // A line cut short by a full disk would be a torn line in the middle of the file once a
    // resumed run appends after it: take it back.
    if (before >= 0 && ::ftruncate(fd, before) != 0) {
      // Nothing more to do: a reader skips a torn last line.
    }
    ::close(fd);
    throw;
  }
  ::close(fd);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_usage("cannot read {}", path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace caliber
