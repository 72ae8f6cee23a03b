#include "core/error.h"

namespace caliber {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return 2;
    case ErrorKind::kOpFailure:
      return 1;
    case ErrorKind::kDeviceFatal:
      return 3;
    case ErrorKind::kInternal:
      return 4;
  }
  return 4;
}

std::string error_summary(const std::string& text) {
  std::string first = text.substr(0, text.find('\n'));
  const std::string search = "Search for `";
  if (auto at = text.find(search); at != std::string::npos) {
    auto start = at + search.size();
    auto end = text.find('\'', start);
    std::string name = text.substr(start, end == std::string::npos ? 0 : end - start);
    if (!name.empty() && first.find(name) == std::string::npos) first += " (" + name + ")";
  }
  constexpr size_t kMax = 400;
  if (first.size() > kMax) first = first.substr(0, kMax) + "...";
  return first;
}

}  // namespace caliber
