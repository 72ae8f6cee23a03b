#pragma once

#include <string>

#include "report/compare.h"
#include "report/run_collection.h"

namespace caliber {

// One self-contained HTML page (inline CSS, inline SVG, one small inline script; nothing
// fetched): the identity, the speedup (or latency) distribution per family, sortable per-family
// tables, the A/B verdicts when `comparison` is given, and the failures and dismissed ops with
// their reasons. `run` is A of the comparison and `compared_with` its B (both or neither given).
// A marker element (#caliber-render-status) reads "rendered" once the script ran,
// and script errors are listed in #caliber-errors, so a headless browser can check the page.
std::string render_html_report(const RunCollection& run, const Comparison* comparison = nullptr,
                               const RunCollection* compared_with = nullptr);

}  // namespace caliber
