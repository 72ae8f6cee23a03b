#include "report/terminal_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace caliber {
namespace {

constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kRed = "\x1b[31m";
constexpr const char* kYellow = "\x1b[33m";
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kReset = "\x1b[0m";

std::string paint(const std::string& text, const char* colour, const TerminalStyle& style) {
  return style.color ? std::string(colour) + text + kReset : text;
}

std::string number_or_dash(const std::optional<double>& value, int precision) {
  return value ? fmt::format("{:.{}f}", *value, precision) : "-";
}

}  // namespace

std::vector<std::string> split_size_detail(const std::string& detail) {
  std::string body = detail;
  if (body.size() >= 2 && ((body.front() == '[' && body.back() == ']') ||
                           (body.front() == '(' && body.back() == ')'))) {
    body = body.substr(1, body.size() - 2);
  }
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : body) {
    if (c == '[' || c == '(' || c == '{') ++depth;
    if (c == ']' || c == ')' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    if (!(current.empty() && c == ' ')) current.push_back(c);
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

std::string terminal_table(const TableHeading& heading, const std::vector<TableLine>& lines,
                           const std::vector<std::string>& markers, const TerminalStyle& style) {
  std::vector<std::vector<std::string>> args;
  size_t width = 0;
  for (const auto& line : lines) {
    args.push_back(split_size_detail(line.size_detail));
    width = std::max(width, args.back().size());
  }
  // An argument is folded when every row has it, with the same text, and there is more than one
  // row (with one row nothing is repeated).
  std::vector<bool> folded(width, false);
  std::vector<std::string> legend;
  if (lines.size() > 1) {
    for (size_t i = 0; i < width; ++i) {
      bool same = true;
      for (const auto& a : args) same = same && a.size() == width && a[i] == args[0][i];
      if (same) {
        folded[i] = true;
        legend.push_back(fmt::format("arg{}={}", i, args[0][i]));
      }
    }
  }
  std::string out = paint(flaggems_table_title(heading), kBold, style) + "\n";
  if (!legend.empty()) out += fmt::format("  same in every row: {}\n", fmt::join(legend, "  "));
  if (!markers.empty()) {
    out += "  markers: " + paint(fmt::format("{}", fmt::join(markers, " ")), kYellow, style) + "\n";
  }
  out += fmt::format("  {:<8} {:>12} {:>12} {:>8} {:>9} {:>9}  {}\n", "Status", "Torch (ms)",
                     "Gems (ms)", "Speedup", "TFLOPS", "Peak MiB", "Inputs");
  for (size_t r = 0; r < lines.size(); ++r) {
    const TableLine& line = lines[r];
    std::vector<std::string> shown;
    for (size_t i = 0; i < args[r].size(); ++i) {
      if (i >= folded.size() || !folded[i]) shown.push_back(args[r][i]);
    }
    std::string status = fmt::format("{:<8}", to_string(line.status));
    status = paint(status, line.status == RowStatus::kSuccess ? kGreen : kRed, style);
    out += fmt::format("  {} {:>12} {:>12} {:>8} {:>9} {:>9}  {}", status,
                       number_or_dash(line.torch_ms, 6), number_or_dash(line.gems_ms, 6),
                       number_or_dash(line.speedup, 3), number_or_dash(line.tflops, 3),
                       number_or_dash(line.peak_mib, 1), fmt::join(shown, ", "));
    if (!line.error.empty()) out += "  " + paint(line.error, kRed, style);
    out += "\n";
  }
  return out;
}

}  // namespace caliber
