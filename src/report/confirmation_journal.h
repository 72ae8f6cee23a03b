#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

#include "report/confirmation.h"

namespace caliber {

struct Comparison;
struct RowComparison;

// The confirmation pass's journal (confirm/confirmations.jsonl beside compare.csv): a line per
// re-measured row, appended and flushed as soon as the row's rounds end, so a pass cut by its
// deadline, a signal or a crash keeps what it measured, and the same command goes on from there.
std::string confirmation_journal_line(const RowComparison& row, const Confirmation& confirmation);

// The journal's confirmations that still belong to `comparison`, keyed by row index: a line is
// taken only for a row that needs confirming, with the same key (op, dtype, provider, shape,
// occurrence), the same screens' medians on both sides and the same rounds asked; a later line
// for a row replaces an earlier one. A missing journal gives none; a torn last line is skipped.
std::map<size_t, Confirmation> read_confirmation_journal(const std::filesystem::path& path,
                                                         const Comparison& comparison, int rounds);

}  // namespace caliber
