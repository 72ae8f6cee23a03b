#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>

namespace caliber {

// What `load` made of a file, kept for the process while the file keeps its size and
// modification time: a worker plans a thousand ops from the same shape file and op lists, and
// yaml-cpp took about 6 ms an op to parse ops/dismiss.yaml alone. An edited file is parsed
// again; a file that cannot be stat'ed is never kept (its load says why).
template <typename T>
std::shared_ptr<const T> cached_parse(const std::filesystem::path& path,
                                      T (*load)(const std::filesystem::path&)) {
  struct Slot {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type written;
    std::shared_ptr<const T> parsed;
  };
  static std::mutex mutex;
  static std::map<std::string, Slot> cache;
  std::error_code size_error;
  std::error_code time_error;
  const std::uintmax_t size = std::filesystem::file_size(path, size_error);
  const auto written = std::filesystem::last_write_time(path, time_error);
  if (size_error || time_error) return std::make_shared<const T>(load(path));
  std::lock_guard<std::mutex> lock(mutex);
  Slot& slot = cache[path.string()];
  if (!slot.parsed || slot.size != size || slot.written != written) {
    slot = Slot{size, written, std::make_shared<const T>(load(path))};
  }
  return slot.parsed;
}

}  // namespace caliber
