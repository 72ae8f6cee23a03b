#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

// Every layer is a static library linked into one binary, so two classes of one name in
// namespace caliber are an ODR violation the linker does not report: the program then runs one
// type's code on the other's layout (seen: report's and batch's OpStatus, a double free). This
// keeps type names unique across src/.
void list_headers(const std::string& dir, std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) {
      list_headers(path, out);
    } else if (name.size() > 2 && name.substr(name.size() - 2) == ".h") {
      out.push_back(path);
    }
  }
  closedir(d);
}

// The type a line defines at namespace scope ("class Name {", "struct Name : Base {",
// "class Name final", "enum class Name {"); empty when it defines none. Enums count: two
// `Verdict` enums, one per layer, compiled each into its own translation units without complaint.
std::string defined_type(const std::string& line) {
  static const std::regex definition(
      R"(^(?:class|struct|enum class|enum struct|enum) ([A-Z][A-Za-z0-9_]*)\b[^;]*$)");
  std::smatch m;
  return std::regex_match(line, m, definition) ? m[1].str() : "";
}

TEST(SourceLayout, ClassesStructsAndEnumsCountAsDefinitions) {
  EXPECT_EQ(defined_type("class GraphTimer final : public Timer {"), "GraphTimer");
  EXPECT_EQ(defined_type("struct ShapeCase {"), "ShapeCase");
  EXPECT_EQ(defined_type("enum class Verdict {"), "Verdict");
  EXPECT_EQ(defined_type("enum class RowStatus : uint8_t {"), "RowStatus");
  EXPECT_EQ(defined_type("class Provider;"), "");
  EXPECT_EQ(defined_type("  enum class Kind { kInt, kFloat };"), "");  // nested: not global
}

TEST(SourceLayout, EveryTypeNameIsDefinedOnce) {
  std::vector<std::string> headers;
  list_headers(std::string(CALIBER_SOURCE_DIR) + "/src", headers);
  ASSERT_GT(headers.size(), 50u);
  std::map<std::string, std::string> seen;
  for (const auto& path : headers) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      std::string name = defined_type(line);
      if (name.empty()) continue;
      auto [it, inserted] = seen.emplace(name, path);
      EXPECT_TRUE(inserted) << name << " is defined in " << it->second << " and " << path;
    }
  }
}

}  // namespace
