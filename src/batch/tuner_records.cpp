#include "batch/tuner_records.h"

#include <set>

#include "core/atomic_file.h"
#include "core/text_util.h"

namespace caliber {
namespace {

std::string record_key(const std::string& line) {
  size_t first = line.find(',');
  if (first == std::string::npos) return line;
  size_t second = line.find(',', first + 1);
  return second == std::string::npos ? line : line.substr(0, second);
}

}  // namespace

std::string merge_tunableop_records(const std::vector<std::string>& files) {
  std::string validators;
  std::string results;
  std::set<std::string> seen_validators;
  std::set<std::string> seen_results;
  for (const auto& file : files) {
    for (const auto& raw : split(file, '\n')) {
      std::string line = trim(raw);
      if (line.empty()) continue;
      if (line.rfind("Validator,", 0) == 0) {
        if (seen_validators.insert(record_key(line)).second) validators += line + "\n";
      } else if (seen_results.insert(record_key(line)).second) {
        results += line + "\n";
      }
    }
  }
  return validators + results;
}

int merge_tunableop_files(const std::vector<std::filesystem::path>& inputs,
                          const std::filesystem::path& output) {
  std::vector<std::string> contents;
  for (const auto& path : inputs) {
    if (std::filesystem::exists(path)) contents.push_back(read_file(path));
  }
  write_file_atomic(output, merge_tunableop_records(contents));
  return static_cast<int>(contents.size());
}

}  // namespace caliber
