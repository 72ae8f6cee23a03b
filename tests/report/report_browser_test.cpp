// Opens a generated report in headless Chromium (Debian's `chromium`, installed by
// scripts/setup.sh) and checks what a person would see: the script ran, the tables and charts
// are in the DOM, sorting works, and the console stayed clean.

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "report/html_report.h"
#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::TempDir;
using testing::write_sample_batch;

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

struct BrowserRun {
  int exit_code;
  std::string out;
  std::string err;
};

BrowserRun run_chromium(const std::string& chromium, const TempDir& dir, const std::string& args) {
  std::string command = "timeout 120 " + chromium +
                        " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
                        "--no-first-run --user-data-dir=" +
                        (dir / "profile").string() + " --enable-logging=stderr --v=0 " + args +
                        " >" + (dir / "out.txt").string() + " 2>" + (dir / "err.txt").string();
  int rc = std::system(command.c_str());
  return {rc, read_file(dir / "out.txt"), read_file(dir / "err.txt")};
}

std::string attribute(const std::string& dom, const std::string& name) {
  std::smatch m;
  std::regex pattern(name + "=\"([^\"]*)\"");
  return std::regex_search(dom, m, pattern) ? m[1].str() : "";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class ReportInBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_.empty())
      GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it)";
    write_sample_batch(dir_ / "a", 1.0, 1);
    write_sample_batch(dir_ / "b", 0.8, 1000);
    RunCollection a = load_run_collection((dir_ / "a").string());
    RunCollection b = load_run_collection((dir_ / "b").string());
    Comparison c = compare_runs(a, b, {});
    report_ = dir_ / "report.html";
    write_file_atomic(report_, render_html_report(a, &c, &b));
  }

  std::string chromium_;
  TempDir dir_{"caliber-browser"};
  std::filesystem::path report_;
};

TEST_F(ReportInBrowser, RendersTablesAndChartsWithoutScriptErrors) {
  BrowserRun run =
      run_chromium(chromium_, dir_, "--dump-dom 'file://" + report_.string() + "#selftest'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string& dom = run.out;
  ASSERT_NE(dom.find("id=\"caliber-render-status\""), std::string::npos) << run.err;
  EXPECT_NE(dom.find(">rendered</div>"), std::string::npos) << "the inline script did not finish";
  EXPECT_EQ(attribute(dom, "data-selftest"), "pass") << "sorting a numeric column failed";
  EXPECT_EQ(attribute(dom, "data-charts"), "2");  // speedup distribution + verdict plot
  EXPECT_GE(std::stoi(attribute(dom, "data-tables")), 5);
  EXPECT_GT(count(dom, "<circle"), 20u);
  EXPECT_GT(count(dom, "aria-sort=\"descending\""), 0u);  // the self-test left its sort
  EXPECT_NE(dom.find("<ul id=\"caliber-errors\" hidden=\"\"></ul>"), std::string::npos)
      << "script errors were recorded";
  for (const char* bad : {"Uncaught", ":CONSOLE"}) {
    EXPECT_EQ(run.err.find(bad), std::string::npos) << run.err;
  }
}

TEST_F(ReportInBrowser, ScreenshotIsDrawn) {
  auto png = dir_ / "report.png";
  BrowserRun run =
      run_chromium(chromium_, dir_,
                   "--hide-scrollbars --window-size=1280,1800 --screenshot=" + png.string() +
                       " 'file://" + report_.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(std::filesystem::exists(png)) << run.err;
  // A blank page compresses to a few KB; charts and tables do not.
  EXPECT_GT(std::filesystem::file_size(png), 40000u);
  // CI (or a person) can keep the page and its picture to look at.
  if (const char* keep = std::getenv("CALIBER_SCREENSHOT_DIR")) {
    for (const auto& file : {png, report_}) {
      std::filesystem::copy_file(file, std::filesystem::path(keep) / file.filename(),
                                 std::filesystem::copy_options::overwrite_existing);
    }
  }
}

}  // namespace
}  // namespace caliber
