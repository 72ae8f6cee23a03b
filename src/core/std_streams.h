#pragma once

#include <filesystem>

namespace caliber {

// Points this process's stdout and stderr at `path` (appended to) for the object's life, then
// back where they were. caliber's own output goes through its sinks; this catches what it does
// not write itself (a library's warnings, a crash's last words), so that it lands in the same
// file. Throws a usage error naming the file when it cannot be opened.
class StdStreamsToFile {
 public:
  explicit StdStreamsToFile(const std::filesystem::path& path);
  ~StdStreamsToFile();
  StdStreamsToFile(const StdStreamsToFile&) = delete;
  StdStreamsToFile& operator=(const StdStreamsToFile&) = delete;

 private:
  int saved_out_ = -1;
  int saved_err_ = -1;
};

// Takes stdout for a private channel: returns a descriptor on what stdout was and points stdout
// at stderr, so that stray output never mixes with what is written to the channel.
int take_stdout_as_channel();

}  // namespace caliber
