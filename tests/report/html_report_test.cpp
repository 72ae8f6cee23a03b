#include "report/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "report/run_fixture.h"

namespace caliber {
namespace {

using testing::TempDir;
using testing::write_sample_batch;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class HtmlReport : public ::testing::Test {
 protected:
  TempDir dir{"caliber-html"};
  RunCollection a, b;
  void SetUp() override {
    write_sample_batch(dir / "a", 1.0, 1);
    write_sample_batch(dir / "b", 0.8, 1000);
    a = load_run_collection((dir / "a").string());
    b = load_run_collection((dir / "b").string());
  }
};

TEST_F(HtmlReport, NeedsNothingFromTheNetwork) {
  Comparison c = compare_runs(a, b, {});
  std::string html = render_html_report(a, &c, &b);
  // The only URL allowed is the SVG namespace, which is a name, not a fetch.
  std::string without_ns =
      std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(without_ns.find("http://"), std::string::npos);
  EXPECT_EQ(without_ns.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
}

TEST_F(HtmlReport, ShowsSpeedupChartSortableTablesAndFailures) {
  std::string html = render_html_report(a);
  EXPECT_NE(html.find("Speedup per family"), std::string::npos);
  EXPECT_EQ(count(html, "<svg class=\"chart distribution\""), 1u);
  EXPECT_EQ(count(html, "<svg class=\"chart verdicts\""), 0u);
  EXPECT_GE(count(html, "<table class=\"sortable\">"), 3u);  // one per family, at least
  EXPECT_NE(html.find("RuntimeError: triton compile failed &lt;BLOCK_N=4096&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("host sync inside the op (verified on H200)"), std::string::npos);
  EXPECT_NE(html.find("<td>dismissed</td>"), std::string::npos);
  EXPECT_EQ(html.find("<td>ok</td>"), std::string::npos);  // an ok op is not a failure
}

TEST_F(HtmlReport, ComparisonAddsTheVerdictPlotAndIdentityOfBothSides) {
  Comparison c = compare_runs(a, b, {});
  std::string html = render_html_report(a, &c, &b);
  EXPECT_EQ(count(html, "<svg class=\"chart verdicts\""), 1u);
  EXPECT_NE(html.find("A/B verdicts"), std::string::npos);
  EXPECT_GT(count(html, "data-verdict=\"FAST\""), 0u);
  EXPECT_GT(count(html, "data-verdict=\"SAME\""), 0u);
  EXPECT_NE(html.find("<th>B</th>"), std::string::npos);
}

TEST_F(HtmlReport, WithoutCandidateRowsShowsLatency) {
  TempDir only_base("caliber-html-base");
  testing::write_run(only_base / "run", testing::test_identity(),
                     {testing::test_row("mm", "blas", {1, 1.1, 0.9})});
  std::string html = render_html_report(load_run_collection((only_base / "run").string()));
  EXPECT_NE(html.find("Latency per family"), std::string::npos);
  EXPECT_EQ(count(html, "<svg class=\"chart distribution\""), 1u);
}

}  // namespace
}  // namespace caliber
