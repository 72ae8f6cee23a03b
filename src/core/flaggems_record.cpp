#include "core/flaggems_record.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/atomic_file.h"
#include "core/error.h"

namespace caliber {
namespace {

using ojson = nlohmann::ordered_json;

// Reads the Python literals FlagGems prints as a Size Detail: lists, tuples, dicts, numbers,
// strings, True/False/None, `torch.Size([..])` and bare names such as `torch.float16`.
class PythonLiteral {
 public:
  explicit PythonLiteral(std::string_view text) : text_(text) {}

  std::optional<ojson> parse() {
    auto value = parse_value();
    skip_space();
    if (!value || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // Items up to `close`, a trailing comma allowed (Python's one-element tuple).
  std::optional<ojson> parse_sequence(char close) {
    ojson out = ojson::array();
    if (take(close)) return out;
    while (true) {
      auto item = parse_value();
      if (!item) return std::nullopt;
      out.push_back(std::move(*item));
      if (take(close)) return out;
      if (!take(',')) return std::nullopt;
      if (take(close)) return out;
    }
  }

  std::optional<ojson> parse_dict() {
    ojson out = ojson::object();
    if (take('}')) return out;
    while (true) {
      auto key = parse_value();
      if (!key || !take(':')) return std::nullopt;
      auto value = parse_value();
      if (!value) return std::nullopt;
      out[key->is_string() ? key->get<std::string>() : key->dump()] = std::move(*value);
      if (take('}')) return out;
      if (!take(',')) return std::nullopt;
      if (take('}')) return out;
    }
  }

  std::optional<ojson> parse_string() {
    char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out.push_back(text_[pos_++]);
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return ojson(out);
  }

  std::optional<ojson> parse_number() {
    size_t start = pos_;
    if (text_[pos_] == '-' || text_[pos_] == '+') ++pos_;
    bool is_float = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' ||
                 ((c == '-' || c == '+') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E'))) {
        is_float = true;
        ++pos_;
      } else {
        break;
      }
    }
    std::string token(text_.substr(start, pos_ - start));
    try {
      if (!is_float) return ojson(std::stoll(token));
      return ojson(std::stod(token));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  std::optional<ojson> parse_name() {
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    std::string name(text_.substr(start, pos_ - start));
    if (name.empty()) return std::nullopt;
    if (name == "torch.Size") {
      // torch.Size([a, b]) is a tuple subclass: json.dumps writes it as a list.
      if (!take('(')) return std::nullopt;
      auto dims = take('[') ? parse_sequence(']') : std::optional<ojson>(ojson::array());
      if (!dims || !take(')')) return std::nullopt;
      return dims;
    }
    if (name == "True") return ojson(true);
    if (name == "False") return ojson(false);
    if (name == "None") return ojson(nullptr);
    if (name == "inf") return ojson(INFINITY);
    if (name == "nan") return ojson(NAN);
    return ojson(name);  // torch.float16: FlagGems' encoder writes a dtype as str(dtype)
  }

  std::optional<ojson> parse_value() {
    skip_space();
    if (pos_ >= text_.size()) return std::nullopt;
    char c = text_[pos_];
    if (c == '[' || c == '(' || c == '{') {
      ++pos_;
      if (c == '{') return parse_dict();
      return parse_sequence(c == '[' ? ']' : ')');
    }
    if (c == '\'' || c == '"') return parse_string();
    if (text_.substr(pos_, 4) == "-inf") {
      pos_ += 4;
      return ojson(-INFINITY);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      return parse_number();
    }
    return parse_name();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Python's repr(float): the shortest digits that read back as `v` (correctly rounded, which
// nlohmann's Grisu2 is not always), laid out fixed unless the decimal point falls more than 16
// places right or 4 places left of the first digit.
std::string python_float_repr(double v) {
  char buffer[64];
  auto written = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::scientific);
  std::string text(buffer, written.ptr);
  std::string sign;
  if (text[0] == '-') {
    sign = "-";
    text.erase(0, 1);
  }
  size_t e = text.find('e');
  std::string digits = text.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int decpt = std::stoi(text.substr(e + 1)) + 1;  // digits before the decimal point
  int n = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    std::string mantissa = digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "");
    int exponent = decpt - 1;
    return fmt::format("{}{}e{}{:02d}", sign, mantissa, exponent < 0 ? '-' : '+',
                       exponent < 0 ? -exponent : exponent);
  }
  if (decpt <= 0) return sign + "0." + std::string(-decpt, '0') + digits;
  if (decpt >= n) return sign + digits + std::string(decpt - n, '0') + ".0";
  return sign + digits.substr(0, decpt) + "." + digits.substr(decpt);
}

// json.dumps(value) (indent < 0: separators ", " and ": ") or json.dump(value, indent=N).
void dump_python(const ojson& value, int indent, int level, std::string& out) {
  auto newline = [&](int depth) {
    if (indent >= 0) out += "\n" + std::string(static_cast<size_t>(indent * depth), ' ');
  };
  const char* separator = indent < 0 ? ", " : ",";
  switch (value.type()) {
    case ojson::value_t::object: {
      if (value.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += separator;
        first = false;
        newline(level + 1);
        out += ojson(key).dump(-1, ' ', true);
        out += ": ";
        dump_python(item, indent, level + 1, out);
      }
      newline(level);
      out += '}';
      return;
    }
    case ojson::value_t::array: {
      if (value.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += separator;
        first = false;
        newline(level + 1);
        dump_python(item, indent, level + 1, out);
      }
      newline(level);
      out += ']';
      return;
    }
    case ojson::value_t::number_float: {
      double v = value.get<double>();
      // Python's json writes these (allow_nan=True); nlohmann would write null.
      if (std::isnan(v)) {
        out += "NaN";
      } else if (std::isinf(v)) {
        out += v > 0 ? "Infinity" : "-Infinity";
      } else {
        out += python_float_repr(v);
      }
      return;
    }
    default:
      out += value.dump(-1, ' ', true);
  }
}

ojson number_or_null(const std::optional<double>& value) {
  return value ? ojson(*value) : ojson(nullptr);
}

ojson positive_or_null(double value) { return value > 0 ? ojson(value) : ojson(nullptr); }

bool wanted(const RecordContext& context, const std::string& metric) {
  if (context.metrics.empty()) {
    return metric == "latency_base" || metric == "latency" || metric == "speedup" ||
           metric == "tflops";
  }
  return std::find(context.metrics.begin(), context.metrics.end(), metric) != context.metrics.end();
}

// A baseline row and the candidate row measured beside it.
struct Pair {
  std::string dtype;
  const ResultRow* baseline = nullptr;
  const ResultRow* candidate = nullptr;
};

std::vector<Pair> pair_rows(const std::vector<ResultRow>& rows) {
  std::vector<Pair> pairs;
  for (const auto& row : rows) {
    bool baseline = row.provider == "baseline";
    Pair* open = nullptr;
    for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
      const ResultRow* any = it->baseline ? it->baseline : it->candidate;
      if (it->dtype == row.dtype && any->size_detail == row.size_detail &&
          (baseline ? it->baseline == nullptr : it->candidate == nullptr)) {
        open = &*it;
        break;
      }
    }
    if (open == nullptr) {
      pairs.push_back({row.dtype});
      open = &pairs.back();
    }
    (baseline ? open->baseline : open->candidate) = &row;
  }
  return pairs;
}

std::optional<double> latency_of(const ResultRow* row) {
  if (row == nullptr || row->status != RowStatus::kSuccess) return std::nullopt;
  return row->latency_ms;
}

ojson metric_entry(const Pair& pair, const RecordContext& context) {
  const ResultRow* base = pair.baseline;
  const ResultRow* cand = pair.candidate;
  const ResultRow& any = base ? *base : *cand;
  std::optional<double> speedup;
  if (latency_of(cand) && cand->speedup) speedup = cand->speedup;
  double tflops = cand && cand->tflops > 0 ? cand->tflops : (base ? base->tflops : 0);
  std::string error;
  if (base && base->status == RowStatus::kFailed)
    error = base->error.empty() ? "FAILED" : base->error;
  if (error.empty() && cand && cand->status == RowStatus::kFailed) {
    error = cand->error.empty() ? "FAILED" : cand->error;
  }
  auto pick = [&](const char* metric, ojson value) {
    return wanted(context, metric) ? value : ojson(nullptr);
  };
  ojson m = ojson::object();
  m["legacy_shape"] = nullptr;
  m["shape_detail"] = shape_detail_json(any.size_detail);
  m["latency_base"] = pick("latency_base", number_or_null(latency_of(base)));
  m["latency"] = pick("latency", number_or_null(latency_of(cand)));
  m["gbps_base"] = pick("gbps_base", base ? positive_or_null(base->gbps) : ojson(nullptr));
  m["gbps"] = pick("gbps", cand ? positive_or_null(cand->gbps) : ojson(nullptr));
  m["speedup"] = pick("speedup", number_or_null(speedup));
  m["accuracy"] = nullptr;
  m["tflops"] = pick("tflops", positive_or_null(tflops));
  m["utilization"] = nullptr;
  m["compared_speedup"] = nullptr;
  m["error_msg"] = error.empty() ? ojson(nullptr) : ojson(error);
  return m;
}

std::vector<ResultRow> rows_of(const std::filesystem::path& run_dir) {
  std::filesystem::path results = run_dir / "results.jsonl";
  if (!std::filesystem::exists(results)) return {};
  return read_results_jsonl(results.string());
}

std::vector<ojson> results_in_log(const std::string& text) {
  std::vector<ojson> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    constexpr std::string_view kPrefix = "[INFO] {";
    if (line.starts_with(kPrefix)) {
      ojson parsed = ojson::parse(std::string(line.substr(kPrefix.size() - 1)), nullptr, false);
      if (!parsed.is_discarded()) out.push_back(std::move(parsed));
    }
    start = end + 1;
  }
  return out;
}

}  // namespace

const Choice<RecordFormat>& record_format_choice() {
  static const Choice<RecordFormat> c{
      {"none", RecordFormat::kNone}, {"log", RecordFormat::kLog}, {"json", RecordFormat::kJson}};
  return c;
}

std::string record_file_name(RecordFormat format) {
  return format == RecordFormat::kJson ? kRecordJsonName : kRecordLogName;
}

const std::vector<std::string>& flaggems_metric_names() {
  static const std::vector<std::string> names = {
      "latency_base", "latency",     "gbps_base",        "gbps",     "speedup", "accuracy",
      "tflops",       "utilization", "compared_speedup", "error_msg"};
  return names;
}

std::vector<std::string> parse_flaggems_metrics(const std::string& label, const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find(',', start), text.size());
    std::string name = text.substr(start, end - start);
    start = end + 1;
    if (name.empty()) continue;
    const auto& known = flaggems_metric_names();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw_usage("{}: '{}' is not a metric (accepted: {})", label, name, fmt::join(known, ", "));
    }
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

nlohmann::ordered_json shape_detail_json(std::string_view size_detail) {
  if (size_detail.empty()) return ojson::array();
  auto parsed = PythonLiteral(size_detail).parse();
  return parsed ? *parsed : ojson(std::string(size_detail));
}

std::string python_json_dumps(const nlohmann::ordered_json& value) {
  std::string out;
  dump_python(value, -1, 0, out);
  return out;
}

std::vector<nlohmann::ordered_json> flaggems_results(const std::vector<ResultRow>& rows,
                                                     const RecordContext& context) {
  std::vector<ojson> results;
  std::vector<std::string> dtypes;
  auto pairs = pair_rows(rows);
  for (const auto& pair : pairs) {
    if (std::find(dtypes.begin(), dtypes.end(), pair.dtype) == dtypes.end()) {
      dtypes.push_back(pair.dtype);
    }
  }
  for (const auto& dtype : dtypes) {
    ojson result = ojson::object();
    result["op_name"] = context.op;
    result["dtype"] = "torch." + dtype;
    result["mode"] = context.mode;
    result["level"] = context.level;
    result["result"] = ojson::array();
    for (const auto& pair : pairs) {
      if (pair.dtype == dtype) result["result"].push_back(metric_entry(pair, context));
    }
    results.push_back(std::move(result));
  }
  return results;
}

std::string record_log_text(const std::vector<nlohmann::ordered_json>& results) {
  std::string out = "[INFO] Benchmark record logger enabled\n";
  for (const auto& result : results) out += "[INFO] " + python_json_dumps(result) + "\n";
  return out;
}

nlohmann::ordered_json benchmark_result_entry(const std::vector<nlohmann::ordered_json>& results,
                                              const std::string& outcome,
                                              const std::string& test_case,
                                              const std::string& reason) {
  // Key order as FlagGems' conftest fills it: details during the call, then its report.
  ojson entry = ojson::object();
  entry["details"] = ojson::array();
  for (const auto& r : results) entry["details"].push_back(r);
  entry["result"] = outcome;
  entry["test_case"] = test_case;
  entry["reason"] = reason.empty() ? ojson(nullptr) : ojson(reason);
  return entry;
}

std::string benchmark_result_text(const nlohmann::ordered_json& by_op) {
  std::string out;
  dump_python(by_op, 2, 0, out);
  return out;  // json.dump writes no final newline
}

void write_run_record(const std::filesystem::path& run_dir, RecordFormat format,
                      const RecordContext& context, const std::string& test_case) {
  if (format == RecordFormat::kNone) return;
  std::vector<ResultRow> rows = rows_of(run_dir);
  auto results = flaggems_results(rows, context);
  if (format == RecordFormat::kLog) {
    write_file_atomic(run_dir / kRecordLogName, record_log_text(results));
    return;
  }
  std::string reason;
  for (const auto& row : rows) {
    if (row.status == RowStatus::kFailed) {
      reason = row.error.empty() ? "FAILED" : row.error;
      break;
    }
  }
  ojson by_op = ojson::object();
  by_op[context.op] =
      benchmark_result_entry(results, reason.empty() ? "passed" : "failed", test_case, reason);
  write_file_atomic(run_dir / kRecordJsonName, benchmark_result_text(by_op));
}

void write_batch_record(const std::filesystem::path& batch_dir, RecordFormat format,
                        const std::vector<RecordedOp>& ops) {
  if (format == RecordFormat::kNone) return;
  std::vector<ojson> log_results;
  ojson by_op = ojson::object();
  for (const auto& op : ops) {
    std::vector<ojson> details;
    std::string test_case = op.op;
    for (const auto& dir : op.run_dirs) {
      std::filesystem::path file = dir / record_file_name(format);
      if (!std::filesystem::exists(file)) continue;
      std::string text = read_file(file);
      if (format == RecordFormat::kLog) {
        for (auto& r : results_in_log(text)) log_results.push_back(std::move(r));
        continue;
      }
      ojson parsed = ojson::parse(text, nullptr, false);
      if (parsed.is_discarded() || !parsed.contains(op.op)) continue;
      const ojson& entry = parsed[op.op];
      if (entry.contains("test_case") && entry["test_case"].is_string()) {
        test_case = entry["test_case"].get<std::string>();
      }
      for (const auto& d : entry.value("details", ojson::array())) details.push_back(d);
    }
    if (format == RecordFormat::kJson) {
      by_op[op.op] = benchmark_result_entry(details, op.outcome, test_case, op.reason);
    }
  }
  if (format == RecordFormat::kLog) {
    write_file_atomic(batch_dir / kRecordLogName, record_log_text(log_results));
  } else {
    write_file_atomic(batch_dir / kRecordJsonName, benchmark_result_text(by_op));
  }
}

}  // namespace caliber
