#include "report/flaggems_log.h"

#include <optional>
#include <regex>
#include <sstream>
#include <string>

namespace caliber {

namespace {

const std::regex kTitle(
    R"(Operator:\s+(\S+)\s+Performance Test \(dtype=([^,)]+),\s*mode=([^,)]+)(?:,\s*level=([^)]+))?\))");
const std::regex kAnsi("\x1b\\[[0-9;]*[A-Za-z]");
const std::regex kTorchSize(R"(torch\.Size\(\[([0-9,\s]*)\]\))");

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

// Column names are separated by runs of two or more spaces ("Torch Latency (ms)" has single
// spaces inside).
std::vector<std::string> split_columns(const std::string& line) {
  std::vector<std::string> columns;
  std::string current;
  size_t spaces = 0;
  for (char c : line) {
    if (c == ' ') {
      ++spaces;
      continue;
    }
    if (spaces >= 2 && !current.empty()) {
      columns.push_back(current);
      current.clear();
    } else if (spaces == 1 && !current.empty()) {
      current += ' ';
    }
    spaces = 0;
    current += c;
  }
  if (!current.empty()) columns.push_back(current);
  return columns;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// What a numeric column of the table means.
enum class Column { kBaselineLatency, kLatency, kSpeedup, kTflops, kBaselineGbps, kGbps, kOther };

struct Table {
  std::string op;
  std::string dtype;
  std::string mode;
  std::string level;
  std::vector<Column> columns;  // between Status and Size Detail
  std::string candidate;        // provider named by the second latency column
};

void read_header(const std::string& line, Table& table) {
  table.columns.clear();
  table.candidate.clear();
  auto names = split_columns(line);
  bool saw_latency = false;
  for (size_t i = 1; i < names.size(); ++i) {  // names[0] is "Status"
    const std::string& name = names[i];
    if (name == "Size Detail") break;
    const std::string latency_suffix = " Latency (ms)";
    if (name.size() > latency_suffix.size() && name.ends_with(latency_suffix)) {
      if (!saw_latency) {
        table.columns.push_back(Column::kBaselineLatency);
        saw_latency = true;
      } else {
        table.columns.push_back(Column::kLatency);
        table.candidate = lower(name.substr(0, name.size() - latency_suffix.size()));
      }
    } else if (name.ends_with("Speedup")) {
      table.columns.push_back(Column::kSpeedup);
    } else if (name == "TFLOPS") {
      table.columns.push_back(Column::kTflops);
    } else if (name.ends_with("GBPS")) {
      table.columns.push_back(name.starts_with("Torch") ? Column::kBaselineGbps : Column::kGbps);
    } else {
      table.columns.push_back(Column::kOther);
    }
  }
}

std::optional<double> number(const std::string& token) {
  if (token == "N/A") return std::nullopt;
  try {
    size_t used = 0;
    double value = std::stod(token, &used);
    if (used == token.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// One table line -> baseline row and maybe a candidate row; false when the line is not one.
bool read_data_line(const std::string& line, const Table& table, std::vector<ResultRow>& out) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  std::optional<RowStatus> status = row_status_from_string(word);
  if (status != RowStatus::kSuccess && status != RowStatus::kFailed) return false;
  std::vector<std::optional<double>> values;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    std::string token;
    if (!(in >> token)) return false;
    values.push_back(number(token));
  }
  std::string rest;
  std::getline(in, rest);

  ResultRow base;
  base.op = table.op;
  base.dtype = table.dtype;
  base.size_detail = trim(rest);
  base.shape = shapes_in_size_detail(base.size_detail);
  base.markers = {"source=run.log", "mode=" + table.mode};
  if (!table.level.empty()) base.markers.push_back("level=" + table.level);
  ResultRow candidate = base;
  candidate.provider = table.candidate;
  candidate.status = *status;
  std::optional<double> baseline_ms, latency_ms;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const auto& v = values[i];
    switch (table.columns[i]) {
      case Column::kBaselineLatency:
        baseline_ms = v;
        break;
      case Column::kLatency:
        latency_ms = v;
        break;
      case Column::kSpeedup:
        candidate.speedup = v;
        break;
      case Column::kTflops:
        candidate.tflops = v.value_or(0);
        break;
      case Column::kBaselineGbps:
        base.gbps = v.value_or(0);
        break;
      case Column::kGbps:
        candidate.gbps = v.value_or(0);
        break;
      case Column::kOther:
        break;
    }
  }
  auto set_latency = [](ResultRow& row, double ms) {
    row.latency_ms = row.median_ms = row.mean_ms = row.min_ms = row.max_ms = ms;
  };
  if (baseline_ms) {
    set_latency(base, *baseline_ms);
  } else {
    base.status = RowStatus::kFailed;
  }
  out.push_back(base);
  if (!table.candidate.empty()) {
    candidate.baseline_ms = baseline_ms;
    if (latency_ms) {
      set_latency(candidate, *latency_ms);
    } else {
      candidate.status = RowStatus::kFailed;
    }
    out.push_back(candidate);
  }
  return true;
}

}  // namespace

std::vector<std::vector<long>> shapes_in_size_detail(std::string_view size_detail) {
  std::vector<std::vector<long>> shapes;
  std::string text(size_detail);
  for (std::sregex_iterator it(text.begin(), text.end(), kTorchSize), end; it != end; ++it) {
    std::vector<long> dims;
    std::istringstream in((*it)[1].str());
    for (std::string dim; std::getline(in, dim, ',');) {
      if (!trim(dim).empty()) dims.push_back(std::stol(dim));
    }
    shapes.push_back(dims);
  }
  return shapes;
}

std::vector<ResultRow> parse_flaggems_log(std::string_view text) {
  std::vector<ResultRow> rows;
  std::istringstream in(std::regex_replace(std::string(text), kAnsi, ""));
  std::optional<Table> table;
  bool have_columns = false;
  for (std::string raw; std::getline(in, raw);) {
    std::string line = trim(raw);
    std::smatch match;
    if (std::regex_search(line, match, kTitle)) {
      table = Table{};
      table->op = match[1];
      std::string dtype = match[2];
      table->dtype = dtype.starts_with("torch.") ? dtype.substr(6) : dtype;
      table->mode = match[3];
      table->level = match[4];
      have_columns = false;
      continue;
    }
    if (!table) continue;
    if (line.starts_with("Status")) {
      read_header(line, *table);
      have_columns = true;
    } else if (line.empty() || line.starts_with("---")) {
      continue;
    } else if (have_columns && !read_data_line(line, *table, rows)) {
      // Anything else (a pytest progress line, a warning) ends the table.
      table.reset();
    }
  }
  return rows;
}

}  // namespace caliber
