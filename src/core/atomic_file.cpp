#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace caliber {
namespace {

void write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorKind::kInternal,
                  fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::string temp = path.string() + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw Error(ErrorKind::kInternal,
                fmt::format("cannot create {}: {}", temp, std::strerror(errno)));
  }
  try {
    write_all(fd, content, temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    throw Error(ErrorKind::kInternal,
                fmt::format("cannot rename {} to {}: {}", temp, path.string(), std::strerror(err)));
  }
}

void append_line_durable(const std::filesystem::path& path, std::string_view line) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw Error(ErrorKind::kInternal,
                fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  }
  std::string text(line);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  try {
    write_all(fd, text, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fdatasync(fd);
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
