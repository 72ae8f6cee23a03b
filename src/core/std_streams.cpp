#include "core/std_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "core/error.h"

namespace caliber {
namespace {

void flush_all() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

}  // namespace

StdStreamsToFile::StdStreamsToFile(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw_usage("cannot open log '{}'", path.string());
  flush_all();
  saved_out_ = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  saved_err_ = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  ::close(fd);
}

StdStreamsToFile::~StdStreamsToFile() {
  flush_all();
  ::dup2(saved_err_, STDERR_FILENO);
  ::dup2(saved_out_, STDOUT_FILENO);
  ::close(saved_err_);
  ::close(saved_out_);
}

int take_stdout_as_channel() {
  flush_all();
  int channel = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return channel;
}

}  // namespace caliber
