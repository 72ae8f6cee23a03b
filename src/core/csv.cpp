#include "core/csv.h"

#include <algorithm>

namespace caliber {

namespace {

std::string quoted(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += quoted(fields[i]);
  }
  return line + "\n";
}

std::vector<std::vector<std::string>> parse_csv(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool in_quotes = false;
  bool record_open = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      in_quotes = true;
      record_open = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      record_open = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (record_open || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
      }
      field.clear();
      record.clear();
      record_open = false;
    } else {
      field += c;
      record_open = true;
    }
  }
  if (record_open || !field.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

CsvTable::CsvTable(std::vector<std::vector<std::string>> records) {
  if (records.empty()) return;
  header_ = std::move(records.front());
  rows_.assign(std::make_move_iterator(records.begin() + 1),
               std::make_move_iterator(records.end()));
}

bool CsvTable::has_column(std::string_view name) const {
  return std::find(header_.begin(), header_.end(), name) != header_.end();
}

const std::string& CsvTable::at(size_t row, std::string_view name) const {
  static const std::string kEmpty;
  auto it = std::find(header_.begin(), header_.end(), name);
  if (it == header_.end() || row >= rows_.size()) return kEmpty;
  size_t column = static_cast<size_t>(it - header_.begin());
  return column < rows_[row].size() ? rows_[row][column] : kEmpty;
}

}  // namespace caliber
