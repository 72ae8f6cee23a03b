#pragma once

#include <string>
#include <vector>

#include "report/flaggems_table.h"

namespace caliber {

struct TerminalStyle {
  bool color = false;  // only on a TTY, never with NO_COLOR
};

// Splits a FlagGems size detail ("[torch.Size([64, 64]), 1]") into its top-level arguments.
std::vector<std::string> split_size_detail(const std::string& detail);

// The terminal rendering of the same lines as run.log: arguments identical in every row are
// folded into one legend line above the table, and status and markers are coloured.
std::string terminal_table(const TableHeading& heading, const std::vector<TableLine>& lines,
                           const std::vector<std::string>& markers, const TerminalStyle& style);

}  // namespace caliber
