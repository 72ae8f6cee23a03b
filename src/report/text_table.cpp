#include "report/text_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace caliber {

namespace {

bool looks_numeric(const std::string& cell) {
  if (cell.empty()) return true;
  char c = cell.front();
  return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.';
}

std::string clip(const std::string& cell, size_t max_width) {
  if (cell.size() <= max_width) return cell;
  return cell.substr(0, max_width - 3) + "...";
}

const char* ansi(TextTable::Tint tint) {
  switch (tint) {
    case TextTable::Tint::kGreen:
      return "\x1b[32m";
    case TextTable::Tint::kRed:
      return "\x1b[31m";
    case TextTable::Tint::kYellow:
      return "\x1b[33m";
    case TextTable::Tint::kDim:
      return "\x1b[2m";
    case TextTable::Tint::kNone:
      break;
  }
  return "";
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header) : header_(std::move(header)) {}

void TextTable::add_row(std::vector<std::string> cells, Tint tint) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
  tints_.push_back(tint);
}

std::string TextTable::render(bool color, size_t max_width) const {
  size_t n = header_.size();
  std::vector<size_t> width(n);
  std::vector<bool> right(n, true);
  for (size_t c = 0; c < n; ++c) {
    width[c] = header_[c].size();
    for (const auto& row : rows_) {
      width[c] = std::max(width[c], clip(row[c], max_width).size());
      if (!looks_numeric(row[c])) right[c] = false;
    }
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < n; ++c) {
      std::string cell = clip(cells[c], max_width);
      out +=
          right[c] ? fmt::format("{:>{}}", cell, width[c]) : fmt::format("{:<{}}", cell, width[c]);
      if (c + 1 < n) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  };
  std::string out = line(header_) + "\n";
  size_t rule = 0;
  for (size_t w : width) rule += w + 2;
  out += std::string(rule > 2 ? rule - 2 : 0, '-') + "\n";
  for (size_t r = 0; r < rows_.size(); ++r) {
    bool tinted = color && tints_[r] != Tint::kNone;
    out += tinted ? fmt::format("{}{}\x1b[0m\n", ansi(tints_[r]), line(rows_[r]))
                  : line(rows_[r]) + "\n";
  }
  return out;
}

}  // namespace caliber
