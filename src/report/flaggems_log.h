#pragma once

#include <string_view>
#include <vector>

#include "core/result_row.h"

namespace caliber {

// Reads the result tables of a run.log printed in FlagGems' wording, so that logs of the old
// Python harness (and caliber's own run.log) aggregate like results.jsonl:
//
//   Operator: mm  Performance Test (dtype=torch.float16, mode=kernel,level=core)
//   Status       Torch Latency (ms)    Gems Latency (ms)         Gems Speedup  ...  Size Detail
//   ----------------------------------------------------------------------------------------
//   SUCCESS               0.009616            0.200320               0.048  ...  [torch.Size(..)]
//
// Each table line becomes a baseline row (the first latency column) and, when the table has a
// second latency column, a candidate row named after it ("Gems" -> provider "gems") that carries
// the baseline latency and the printed speedup. Logs hold medians only, so the rows have no
// samples. Lines outside tables (pytest chatter, banners) are ignored; ANSI colours are stripped.
std::vector<ResultRow> parse_flaggems_log(std::string_view text);

// "[torch.Size([64, 64]), 1]" -> {{64, 64}}: the tensor shapes a Size Detail names.
std::vector<std::vector<long>> shapes_in_size_detail(std::string_view size_detail);

}  // namespace caliber
