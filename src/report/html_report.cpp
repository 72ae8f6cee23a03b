#include "report/html_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/version.h"
#include "report/markup.h"
#include "report/number_format.h"
#include "report/svg_chart.h"

namespace caliber {

namespace {

constexpr const char* kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2327; margin: 24px auto; max-width: 1280px;
       padding: 0 16px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px;
  border-bottom: 1px solid #d0d7de; padding-bottom: 4px; } h3 { font-size: 15px; margin: 20px 0 6px; }
.meta, .note, .empty { color: #57606a; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f5f7; position: sticky; top: 0; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort=ascending]::after { content: " \25B2"; }
table.sortable th[aria-sort=descending]::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.differs td { background: #fff4e5; } td.detail { max-width: 420px; overflow-wrap: anywhere; }
.verdict { font-weight: 600; } .counts span { margin-right: 14px; }
.chart .grid { stroke: #e5e8eb; } .chart .reference { stroke: #1d2327; stroke-dasharray: 4 3; }
.chart .tick, .chart .note { font-size: 11px; fill: #57606a; } .chart .label { font-size: 12px; }
.chart .axis-label { font-size: 12px; fill: #1d2327; }
.chart .box { fill: #dbe9f6; stroke: #4a78a8; } .chart .median { stroke: #1f4e79; stroke-width: 2; }
.chart .dot { fill: #1f77b4; fill-opacity: .55; } .chart .band { fill: #eceff1; }
.chart .whisker { stroke-width: 1.5; stroke-opacity: .6; }
#caliber-errors { color: #c62828; }
#caliber-render-status { font-size: 11px; color: #8c959f; }
)css";

// Installed first, so that an error anywhere later in the page is still recorded in the DOM.
constexpr const char* kErrorTrap = R"js(
window.caliberErrors = [];
window.addEventListener('error', function (e) {
  window.caliberErrors.push(String(e.message || e));
  var list = document.getElementById('caliber-errors');
  if (list) { var li = document.createElement('li'); li.textContent = String(e.message || e);
              list.appendChild(li); list.hidden = false; }
});
)js";

// Click a header to sort by it (numbers by their data-v value, empty cells last); opening the
// page with #selftest sorts one numeric column both ways and records whether the order held.
constexpr const char* kScript = R"js(
(function () {
  function key(cell) {
    var v = cell.getAttribute('data-v');
    if (v !== null) return v === '' ? null : parseFloat(v);
    return cell.textContent.trim().toLowerCase();
  }
  function sortBy(table, column, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column]), y = key(b.cells[column]);
      if (x === null || y === null) return x === y ? 0 : (x === null ? 1 : -1);
      var r = x < y ? -1 : (x > y ? 1 : 0);
      return descending ? -r : r;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (i === column) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener('click', function () {
        sortBy(table, i, th.getAttribute('aria-sort') === 'ascending');
      });
    });
  });
  var status = document.getElementById('caliber-render-status');
  if (location.hash === '#selftest') {
    var verdict = 'no numeric column';
    var th = document.querySelector('table.sortable th[data-type=number]');
    if (th) {
      var table = th.closest('table');
      var values = function () {
        return Array.prototype.map.call(table.tBodies[0].rows, function (r) {
          return key(r.cells[th.cellIndex]);
        }).filter(function (v) { return v !== null; });
      };
      th.click();
      var up = values();
      th.click();
      var down = values();
      var ordered = function (xs, sign) {
        for (var i = 1; i < xs.length; ++i) if (sign * (xs[i] - xs[i - 1]) < 0) return false;
        return true;
      };
      verdict = ordered(up, 1) && ordered(down, -1) ? 'pass' : 'fail';
    }
    status.setAttribute('data-selftest', verdict);
  }
  status.setAttribute('data-tables', String(tables.length));
  status.setAttribute('data-charts', String(document.querySelectorAll('svg.chart').length));
  status.textContent = 'rendered';
})();
)js";

struct Cell {
  std::string text;
  std::optional<double> value;  // numeric cells sort by this
  std::string style;            // inline style, e.g. a verdict colour
};

Cell text_cell(std::string text) { return {std::move(text), std::nullopt, ""}; }

Cell number_cell(std::optional<double> value, int digits = 4) {
  if (value && !std::isfinite(*value)) value.reset();
  return {human_number(value, digits), value ? value : std::optional<double>(), ""};
}

Cell verdict_cell(const std::string& verdict) {
  return {verdict, std::nullopt, fmt::format("color:{}", verdict_colour(verdict))};
}

std::string table_html(const std::vector<std::string>& header,
                       const std::vector<std::vector<Cell>>& rows, bool sortable,
                       const std::vector<bool>& highlighted = {}) {
  std::vector<bool> numeric(header.size(), false);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < numeric.size(); ++c) {
      if (row[c].value) numeric[c] = true;
    }
  }
  std::string html = sortable ? "<table class=\"sortable\">" : "<table>";
  html += "<thead><tr>";
  for (size_t c = 0; c < header.size(); ++c) {
    html += fmt::format("<th{}>{}</th>", numeric[c] ? " data-type=\"number\"" : "",
                        html_escape(header[c]));
  }
  html += "</tr></thead><tbody>\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    bool mark = r < highlighted.size() && highlighted[r];
    html += mark ? "<tr class=\"differs\">" : "<tr>";
    for (size_t c = 0; c < rows[r].size(); ++c) {
      const Cell& cell = rows[r][c];
      std::string attrs;
      if (numeric[c]) {
        attrs +=
            fmt::format(" class=\"num\" data-v=\"{}\"", cell.value ? csv_number(*cell.value) : "");
      } else if (cell.text.size() > 60) {
        attrs += " class=\"detail\"";
      }
      if (!cell.style.empty()) attrs += fmt::format(" style=\"{}\"", cell.style);
      html += fmt::format("<td{}>{}</td>", attrs, html_escape(cell.text));
    }
    html += "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

std::string identity_value(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::vector<std::string> parts;
    for (const auto& v : value) parts.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    return fmt::format("{}", fmt::join(parts, ", "));
  }
  return value.dump();
}

std::string identity_section(const RunCollection& run, const Comparison* comparison,
                             const RunCollection* other) {
  std::string html = "<h2 id=\"identity\">Identity</h2>\n";
  const RunIdentity* a = run.any_identity();
  const RunIdentity* b = other ? other->any_identity() : nullptr;
  if (!a && !b) {
    return html + "<p class=\"empty\">no run_identity.json (rows read from a log)</p>\n";
  }
  const auto& changing = number_changing_fields();
  nlohmann::json ja = a ? to_json(*a) : nlohmann::json::object();
  nlohmann::json jb = b ? to_json(*b) : nlohmann::json::object();
  const nlohmann::json& keys = a ? ja : jb;
  std::vector<std::vector<Cell>> rows;
  std::vector<bool> differs;
  for (const auto& [field, value] : keys.items()) {
    bool number_changing = std::find(changing.begin(), changing.end(), field) != changing.end();
    std::vector<Cell> row = {text_cell(field + (number_changing ? " *" : ""))};
    row.push_back(text_cell(a ? identity_value(ja[field]) : "-"));
    if (comparison) row.push_back(text_cell(b ? identity_value(jb[field]) : "-"));
    differs.push_back(comparison && number_changing && a && b && ja[field] != jb[field]);
    rows.push_back(std::move(row));
  }
  std::vector<std::string> header = {"field", comparison ? "A" : "value"};
  if (comparison) header.push_back("B");
  html += table_html(header, rows, false, differs);
  html += "<p class=\"note\">* changes numbers: the compare gate requires it to match.";
  if (run.sources.size() > 1) {
    html += fmt::format(" A batch of {} run directories; shown: the first identity.",
                        run.sources.size());
  }
  html += "</p>\n";
  if (comparison) {
    for (const auto& m : comparison->allowed_mismatches) {
      html += fmt::format(
          "<p class=\"note\">compared despite a caliber mismatch (allowed by "
          "--allow-mismatch): {}</p>\n",
          html_escape(m.detail));
    }
  }
  return html;
}

std::string family_of(const ResultRow& row) {
  return row.family.empty() ? "(unknown)" : row.family;
}

std::string distribution_section(const RunCollection& run) {
  bool has_speedups = std::any_of(run.rows.begin(), run.rows.end(), [](const CollectedRow& c) {
    return c.row.status == RowStatus::kSuccess && c.row.speedup.has_value();
  });
  std::set<std::string> providers;
  for (const auto& c : run.rows) {
    if (c.row.speedup) providers.insert(c.row.provider);
  }
  std::map<std::string, ValueGroup> groups;
  for (const auto& c : run.rows) {
    const ResultRow& r = c.row;
    if (r.status != RowStatus::kSuccess) continue;
    std::string label = family_of(r);
    if (has_speedups) {
      if (!r.speedup) continue;
      if (providers.size() > 1) label += " · " + r.provider;
      groups[label].values.push_back(*r.speedup);
    } else {
      groups[label].values.push_back(headline_ms(r));
    }
    groups[label].label = label;
  }
  std::vector<ValueGroup> ordered;
  for (auto& [label, g] : groups) ordered.push_back(std::move(g));
  std::string html = fmt::format("<h2 id=\"distribution\">{} per family</h2>\n",
                                 has_speedups ? "Speedup" : "Latency");
  if (has_speedups) {
    html +=
        "<p class=\"note\">speedup = baseline latency / candidate latency, one dot per op, "
        "shape and dtype; above 1 the candidate is faster.</p>\n";
    html += distribution_svg(ordered, "speedup (log scale)", 1.0);
  } else {
    html += "<p class=\"note\">no candidate rows: median latency per op, shape and dtype.</p>\n";
    html += distribution_svg(ordered, "median latency, ms (log scale)", std::nullopt);
  }
  return html;
}

std::string comparison_section(const Comparison& c) {
  std::string html = "<h2 id=\"compare\">A/B verdicts</h2>\n";
  html += fmt::format("<p class=\"meta\">A: {}<br>B: {}</p>\n<p class=\"counts\">",
                      html_escape(c.a_root), html_escape(c.b_root));
  for (const auto& [verdict, n] : c.verdict_counts) {
    html += fmt::format("<span class=\"verdict\" style=\"color:{}\">{} {}</span>",
                        verdict_colour(verdict), n, verdict);
  }
  const VerdictOptions& v = c.options.verdict;
  html += fmt::format(
      "</p>\n<p class=\"note\">speedup = median(A) / median(B), above 1 B is faster; whiskers: "
      "{:.0f}% bootstrap interval ({} resamples). SAME: the interval lies within ±{:.1f}%; "
      "FAST/SLOW: it lies entirely beyond; UNSURE: it straddles the threshold, a side's noise "
      "exceeds {:.1f}%, or there are fewer than {} samples.</p>\n",
      100 * v.confidence, v.resamples, 100 * v.min_effect, 100 * v.max_noise, v.min_samples);
  std::vector<VerdictPoint> points;
  for (const auto& r : c.rows) {
    if (r.pairing != Pairing::kCompared) continue;
    bool interval = r.stats.ci_high > 0;
    points.push_back({r.stats.speedup, interval ? r.stats.ci_low : r.stats.speedup,
                      interval ? r.stats.ci_high : r.stats.speedup, r.verdict(),
                      fmt::format("{} {} {} {}", r.op, r.dtype, r.provider, r.shape)});
  }
  html += verdict_plot_svg(points, v.min_effect);

  html += "<h3>Geometric mean speedup</h3>\n";
  std::vector<std::vector<Cell>> means;
  for (const auto& g : c.geomeans) {
    means.push_back({text_cell(g.provider), text_cell(g.family),
                     number_cell(static_cast<double>(g.rows)), number_cell(g.speedup)});
  }
  html += table_html({"provider", "family", "rows", "geomean speedup"}, means, true);

  html += "<h3>Rows</h3>\n";
  std::vector<std::vector<Cell>> rows;
  for (const auto& r : c.rows) {
    bool compared = r.pairing == Pairing::kCompared;
    bool interval = compared && r.stats.ci_high > 0;
    auto median = [](const std::optional<ResultRow>& row) -> std::optional<double> {
      if (!row || row->status != RowStatus::kSuccess) return std::nullopt;
      return headline_ms(*row);
    };
    rows.push_back({verdict_cell(r.verdict()), text_cell(r.op), text_cell(r.family),
                    text_cell(r.dtype), text_cell(r.provider), text_cell(r.shape),
                    number_cell(median(r.a)), number_cell(median(r.b)),
                    number_cell(compared && r.stats.speedup > 0 ? std::optional(r.stats.speedup)
                                                                : std::nullopt),
                    number_cell(interval ? std::optional(r.stats.ci_low) : std::nullopt),
                    number_cell(interval ? std::optional(r.stats.ci_high) : std::nullopt),
                    number_cell(interval ? std::optional(100 * r.stats.noise_a) : std::nullopt, 3),
                    number_cell(interval ? std::optional(100 * r.stats.noise_b) : std::nullopt, 3),
                    text_cell(r.stats.reason)});
  }
  html += table_html({"verdict", "op", "family", "dtype", "provider", "shape", "A ms", "B ms",
                      "speedup", "low", "high", "noise A %", "noise B %", "note"},
                     rows, true);
  return html;
}

std::string family_tables_section(const RunCollection& run) {
  std::map<std::string, std::vector<const ResultRow*>> by_family;
  for (const auto& c : run.rows) by_family[family_of(c.row)].push_back(&c.row);
  std::string html = "<h2 id=\"ops\">Results per family</h2>\n";
  if (by_family.empty()) return html + "<p class=\"empty\">no result rows</p>\n";
  for (const auto& [family, rows] : by_family) {
    std::set<std::string> ops;
    for (const auto* r : rows) ops.insert(r->op);
    html += fmt::format("<h3>{} <span class=\"note\">({} ops, {} rows)</span></h3>\n",
                        html_escape(family), ops.size(), rows.size());
    std::vector<std::vector<Cell>> cells;
    for (const auto* r : rows) {
      bool ok = r->status == RowStatus::kSuccess;
      auto when_ok = [&](double v) { return ok && v > 0 ? std::optional(v) : std::nullopt; };
      int samples = r->sample_count > 0 ? r->sample_count : static_cast<int>(r->samples_ms.size());
      cells.push_back({text_cell(r->op), text_cell(r->dtype), text_cell(shape_label(*r)),
                       text_cell(r->provider), text_cell(to_string(r->status)),
                       text_cell(r->timer_used), number_cell(when_ok(headline_ms(*r))),
                       number_cell(r->baseline_ms), number_cell(ok ? r->speedup : std::nullopt),
                       number_cell(when_ok(r->gbps)), number_cell(when_ok(r->tflops)),
                       number_cell(samples > 0 ? std::optional<double>(samples) : std::nullopt),
                       number_cell(when_ok(100 * r->noise), 3),
                       text_cell(fmt::format("{}", fmt::join(r->markers, " ")))});
    }
    html +=
        table_html({"op", "dtype", "shape", "provider", "status", "timer", "median ms",
                    "baseline ms", "speedup", "GB/s", "TFLOP/s", "samples", "noise %", "markers"},
                   cells, true);
  }
  return html;
}

std::string failures_section(const RunCollection& run) {
  std::string html = "<h2 id=\"failures\">Failures and dismissed ops</h2>\n";
  std::vector<std::vector<Cell>> rows;
  for (const auto& c : run.rows) {
    const ResultRow& r = c.row;
    if (r.status == RowStatus::kSuccess) continue;
    rows.push_back({text_cell(r.op), text_cell(r.dtype), text_cell(shape_label(r)),
                    text_cell(r.provider), text_cell(to_string(r.status)), text_cell(r.error)});
  }
  std::vector<std::vector<Cell>> ops;
  for (const auto& s : run.op_statuses) {
    if (s.state == OpState::kOk) continue;
    std::string exit = s.exit_code ? std::to_string(*s.exit_code) : "";
    if (!s.signal.empty()) exit = fmt::format("{} (signal {})", exit, s.signal);
    ops.push_back({text_cell(s.op), text_cell(to_string(s.state)), number_cell(s.attempts),
                   text_cell(exit), text_cell(fmt::format("{}", fmt::join(s.dtypes_failed, ";"))),
                   text_cell(s.error)});
  }
  if (rows.empty() && ops.empty()) return html + "<p class=\"empty\">none</p>\n";
  if (!ops.empty()) {
    html += "<h3>Ops (ops_status.csv)</h3>\n";
    html += table_html({"op", "status", "attempts", "exit", "dtypes failed", "reason"}, ops, true);
  }
  if (!rows.empty()) {
    html += "<h3>Rows</h3>\n";
    html += table_html({"op", "dtype", "shape", "provider", "status", "error"}, rows, true);
  }
  return html;
}

}  // namespace

std::string render_html_report(const RunCollection& run, const Comparison* comparison,
                               const RunCollection* compared_with) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<title>caliber report: {0}</title>\n<style>{1}</style>\n<script>{2}</script>\n</head>\n"
      "<body>\n<h1>caliber report: {0}</h1>\n"
      "<p class=\"meta\">generated {3} by caliber {4}; {5} rows from {6} run director{7}</p>\n"
      "<div id=\"caliber-render-status\">script did not run</div>\n"
      "<ul id=\"caliber-errors\" hidden></ul>\n",
      html_escape(run.root), kStyle, kErrorTrap, utc_now_iso8601(), harness_version(),
      run.rows.size(), run.sources.size(), run.sources.size() == 1 ? "y" : "ies");
  html += identity_section(run, comparison, compared_with);
  html += distribution_section(run);
  if (comparison) html += comparison_section(*comparison);
  html += family_tables_section(run);
  html += failures_section(run);
  html += fmt::format("<script>{}</script>\n</body></html>\n", kScript);
  return html;
}

}  // namespace caliber
