#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// RFC 4180 CSV, the one reader and writer of caliber's CSV files: fields with a comma, quote or
// line break are quoted, quotes doubled. Enough for pandas, spreadsheets and ops_status.csv.
std::string csv_line(const std::vector<std::string>& fields);
std::vector<std::vector<std::string>> parse_csv(std::string_view text);

// A CSV table read by column name, so that readers survive columns being added or reordered.
class CsvTable {
 public:
  explicit CsvTable(std::vector<std::vector<std::string>> records);
  size_t size() const { return rows_.size(); }
  bool has_column(std::string_view name) const;
  // The field of `row` in column `name`; empty when the column or the field is missing.
  const std::string& at(size_t row, std::string_view name) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace caliber
