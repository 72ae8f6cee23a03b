#pragma once

#include <string>
#include <vector>

namespace caliber {

// A fixed-width terminal table: the human view of records that were already written as CSV.
class TextTable {
 public:
  enum class Tint { kNone, kGreen, kRed, kYellow, kDim };

  explicit TextTable(std::vector<std::string> header);
  // Columns whose cells read as numbers are right-aligned.
  void add_row(std::vector<std::string> cells, Tint tint = Tint::kNone);
  // Colours only when asked (a TTY without NO_COLOR); cells wider than `max_width` are cut.
  std::string render(bool color, size_t max_width = 60) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<Tint> tints_;
};

}  // namespace caliber
