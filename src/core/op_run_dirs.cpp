#include "core/op_run_dirs.h"

#include <algorithm>

namespace caliber {

namespace {
constexpr const char* kDtypeReruns = "dtypes";
}  // namespace

std::filesystem::path dtype_rerun_dir(const std::filesystem::path& op_dir,
                                      const std::string& dtype) {
  return op_dir / kDtypeReruns / dtype;
}

std::vector<std::filesystem::path> final_run_dirs(const std::filesystem::path& op_dir) {
  std::vector<std::filesystem::path> reruns;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(op_dir / kDtypeReruns, ec)) {
    if (entry.is_directory()) reruns.push_back(entry.path());
  }
  std::sort(reruns.begin(), reruns.end());
  if (reruns.empty()) return {op_dir};
  return reruns;
}

}  // namespace caliber
