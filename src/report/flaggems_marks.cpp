#include "report/flaggems_marks.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/error.h"

namespace caliber {
namespace {

// `text` with comments removed and every string literal's contents blanked (the quotes stay),
// except the first argument of setattr/getattr on pytest.mark, which names a mark.
std::string code_only(std::string_view text, std::vector<std::string>& registered) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool triple = text.substr(i, 3) == std::string(3, c);
      size_t quote_len = triple ? 3 : 1;
      size_t j = i + quote_len;
      std::string literal;
      while (j < text.size()) {
        if (text[j] == '\\') {
          j += 2;
          continue;
        }
        if (triple ? text.substr(j, 3) == std::string(3, c) : text[j] == c) break;
        if (!triple && text[j] == '\n') break;  // an unterminated literal ends at the line
        literal += text[j];
        ++j;
      }
      static const std::regex kRegistration(R"((?:setattr|getattr)\(\s*pytest\.mark\s*,\s*$)");
      std::string tail = out.substr(out.size() > 80 ? out.size() - 80 : 0);
      if (std::regex_search(tail, kRegistration)) registered.push_back(literal);
      out += std::string(quote_len, c);
      out += std::string(quote_len, c);
      i = std::min(text.size(), j + quote_len);
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

bool is_builtin_pytest_mark(std::string_view name) {
  static const std::set<std::string, std::less<>> kBuiltin = {
      "skip", "skipif", "xfail", "parametrize", "usefixtures", "filterwarnings"};
  return kBuiltin.contains(name);
}

std::vector<std::string> marks_in_test_source(std::string_view text) {
  std::vector<std::string> registered;
  std::string code = code_only(text, registered);
  std::vector<std::string> out;
  auto add = [&out](const std::string& name) {
    if (!is_builtin_pytest_mark(name) && std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  };
  // `_pytest.mark.structures` (an import) is not a mark: the name must not follow a word
  // character or a dot.
  static const std::regex kMark(R"((?:^|[^\w.])pytest\.mark\.([A-Za-z_]\w*))");
  for (std::sregex_iterator it(code.begin(), code.end(), kMark), end; it != end; ++it) {
    add((*it)[1].str());
  }
  for (const auto& name : registered) add(name);
  return out;
}

std::vector<FlaggemsMark> read_flaggems_marks(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) {
    throw_usage("--inventory: '{}' is not a folder (accepted: FlagGems' benchmark/ folder)",
                dir.string());
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.starts_with("test_") && name.ends_with(".py")) {
      files.push_back(entry.path());
    }
  }
  if (files.empty()) {
    throw_usage("--inventory: '{}' holds no test_*.py file (accepted: FlagGems' benchmark/ folder)",
                dir.string());
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, std::set<std::string>> where;
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (const auto& name : marks_in_test_source(text.str())) {
      where[name].insert(fs::relative(path, dir).string());
    }
  }
  std::vector<FlaggemsMark> marks;
  for (auto& [name, in_files] : where) {
    marks.push_back({name, std::vector<std::string>(in_files.begin(), in_files.end())});
  }
  return marks;
}

}  // namespace caliber
