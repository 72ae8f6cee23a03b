// Every `#include "layer/..."` in src/ against the layer table of README.md ("Layout"): a layer
// includes only the layers its row names, and never the files its row forbids. A new upward
// include (core -> anything above, engine -> cli, timing -> core/knobs.h) fails here.

#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct LayerRule {
  std::set<std::string> may_include;  // layer names; "*" for every layer
  std::set<std::string> never;        // include paths, e.g. "core/knobs.h"
};

std::vector<std::string> backticked(const std::string& cell) {
  std::vector<std::string> out;
  std::regex tick("`([^`]+)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), tick), end; it != end; ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream row(line.substr(1));
  for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
  return cells;
}

// The table that follows the "Layout" heading: a row per layer (`layer` in the first column),
// read by the header's "may include" and "never includes" columns.
std::map<std::string, LayerRule> layer_table(const std::string& readme) {
  std::map<std::string, LayerRule> rules;
  std::istringstream in(readme);
  bool in_layout = false;
  size_t may = 0;
  size_t never = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_layout = line == "## Layout";
    if (!in_layout || line.rfind("|", 0) != 0) continue;
    std::vector<std::string> cells = cells_of(line);
    if (line.rfind("| layer", 0) == 0) {
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].find("may include") != std::string::npos) may = i;
        if (cells[i].find("never includes") != std::string::npos) never = i;
      }
      continue;
    }
    auto names = backticked(cells.empty() ? "" : cells[0]);
    if (names.size() != 1 || may == 0 || may >= cells.size()) continue;
    LayerRule rule;
    if (cells[may].find("every layer") != std::string::npos) rule.may_include.insert("*");
    for (const auto& layer : backticked(cells[may])) rule.may_include.insert(layer);
    if (never != 0 && never < cells.size()) {
      for (const auto& path : backticked(cells[never])) rule.never.insert(path);
    }
    rules[names[0]] = rule;
  }
  return rules;
}

// Why `include` (as written between the quotes) may not appear in a file of `layer`; empty
// when it may.
std::string violation(const std::map<std::string, LayerRule>& rules, const std::string& layer,
                      const std::string& include) {
  auto rule = rules.find(layer);
  if (rule == rules.end()) return "layer '" + layer + "' is not in README's layer table";
  std::string target = include.substr(0, include.find('/'));
  if (!rules.count(target)) return "";  // not a layer: a local or third-party header
  if (rule->second.never.count(include)) return layer + " must never include " + include;
  if (rule->second.may_include.count("*") || rule->second.may_include.count(target)) return "";
  return layer + " may not include " + target + " (an upward or sideways include)";
}

void list_sources(const std::string& dir, std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) {
      list_sources(path, out);
    } else if (std::regex_search(name, std::regex(R"(\.(h|cpp|cu)$)"))) {
      out.push_back(path);
    }
  }
  closedir(d);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::map<std::string, LayerRule> readme_rules() {
  return layer_table(slurp(std::string(CALIBER_SOURCE_DIR) + "/README.md"));
}

TEST(IncludeGraph, ReadmeNamesEveryLayerOfSrc) {
  auto rules = readme_rules();
  for (const char* layer :
       {"core", "backend", "timing", "ops", "engine", "report", "batch", "cli"}) {
    EXPECT_TRUE(rules.count(layer)) << layer << " has no row in README's layer table";
  }
}

TEST(IncludeGraph, FlagsUpwardIncludesAndForbiddenFiles) {
  auto rules = readme_rules();
  EXPECT_EQ(violation(rules, "engine", "ops/op_def.h"), "");
  EXPECT_EQ(violation(rules, "cli", "engine/run_session.h"), "");
  EXPECT_EQ(violation(rules, "core", "fmt/format.h"), "");
  EXPECT_NE(violation(rules, "core", "engine/run_session.h"), "");
  EXPECT_NE(violation(rules, "ops", "engine/op_instance.h"), "");
  EXPECT_NE(violation(rules, "engine", "cli/run_config.h"), "");
  EXPECT_NE(violation(rules, "batch", "engine/run_session.h"), "");
  EXPECT_NE(violation(rules, "timing", "core/knobs.h"), "");
  EXPECT_NE(violation(rules, "engine", "core/knobs.h"), "");
  EXPECT_EQ(violation(rules, "cli", "core/knobs.h"), "");
}

TEST(IncludeGraph, EveryIncludeInSrcFollowsTheLayerTable) {
  auto rules = readme_rules();
  const std::string src = std::string(CALIBER_SOURCE_DIR) + "/src";
  std::vector<std::string> files;
  list_sources(src, files);
  ASSERT_GT(files.size(), 100u);
  std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  for (const auto& path : files) {
    std::string relative = path.substr(src.size() + 1);
    std::string layer = relative.substr(0, relative.find('/'));
    std::istringstream in(slurp(path));
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      std::string why = violation(rules, layer, m[1]);
      EXPECT_EQ(why, "") << relative << ":" << number << ": #include \"" << m[1] << "\"";
    }
  }
}

}  // namespace
