#include "core/text_util.h"

namespace caliber {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      out.emplace_back(text.substr(start));
      return out;
    }
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
}

std::vector<std::string> split_nonempty(std::string_view text, char separator) {
  std::vector<std::string> out;
  for (const auto& item : split(text, separator)) {
    std::string t = trim(item);
    if (!t.empty()) out.push_back(std::move(t));
  }
  return out;
}

std::string trim(std::string_view text) {
  const char* space = " \t\r\n";
  size_t start = text.find_first_not_of(space);
  if (start == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(space);
  return std::string(text.substr(start, end - start + 1));
}

std::string one_line(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    out += c;
  }
  out = trim(out);
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

}  // namespace caliber
