#include "batch/op_status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "batch/text_util.h"
#include "core/error.h"

namespace caliber {
namespace {

constexpr std::array<std::pair<OpState, const char*>, 10> kStateNames = {{
    {OpState::kPending, "pending"},
    {OpState::kOk, "ok"},
    {OpState::kPartial, "partial"},
    {OpState::kFailed, "failed"},
    {OpState::kCrashed, "crashed"},
    {OpState::kHung, "hung"},
    {OpState::kDeviceFatal, "device_fatal"},
    {OpState::kBadInput, "bad_input"},
    {OpState::kDismissed, "dismissed"},
    {OpState::kInterrupted, "interrupted"},
}};

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

const char* to_string(OpState state) {
  for (const auto& [s, name] : kStateNames) {
    if (s == state) return name;
  }
  return "?";
}

std::optional<OpState> op_state_from_string(const std::string& text) {
  for (const auto& [s, name] : kStateNames) {
    if (text == name) return s;
  }
  return std::nullopt;
}

bool is_final(OpState state) {
  return state != OpState::kPending && state != OpState::kInterrupted;
}

bool is_failure(OpState state) {
  return state != OpState::kPending && state != OpState::kOk && state != OpState::kDismissed &&
         state != OpState::kInterrupted;
}

const char* const kStatusCsvHeader =
    "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,wall_s,exit,signal,"
    "error";

std::string status_csv(const std::vector<OpStatus>& rows) {
  std::string out = std::string(kStatusCsvHeader) + "\n";
  for (const auto& r : rows) {
    std::vector<std::string> fields = {
        r.op,
        to_string(r.state),
        std::to_string(r.attempts),
        fmt::format("{}", fmt::join(r.dtypes_passed, ";")),
        fmt::format("{}", fmt::join(r.dtypes_failed, ";")),
        r.backend,
        r.device >= 0 ? std::to_string(r.device) : "",
        r.timer_used,
        fmt::format("{:.2f}", r.wall_s),
        r.exit_code ? std::to_string(*r.exit_code) : "",
        r.signal,
        one_line(r.error),
    };
    for (auto& f : fields) f = csv_field(f);
    out += fmt::format("{}\n", fmt::join(fields, ","));
  }
  return out;
}

std::vector<OpStatus> parse_status_csv(const std::string& text) {
  std::vector<OpStatus> rows;
  std::vector<std::string> lines = split(text, '\n');
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    std::vector<std::string> f = split_csv_line(lines[i]);
    if (f.size() != 12) {
      throw_usage("ops_status.csv line {}: {} fields (accepted: 12)", i + 1, f.size());
    }
    OpStatus r;
    r.op = f[0];
    auto state = op_state_from_string(f[1]);
    if (!state) throw_usage("ops_status.csv line {}: '{}' is not a status", i + 1, f[1]);
    r.state = *state;
    r.attempts = f[2].empty() ? 0 : std::stoi(f[2]);
    r.dtypes_passed = split_nonempty(f[3], ';');
    r.dtypes_failed = split_nonempty(f[4], ';');
    r.backend = f[5];
    r.device = f[6].empty() ? -1 : std::stoi(f[6]);
    r.timer_used = f[7];
    r.wall_s = f[8].empty() ? 0 : std::stod(f[8]);
    if (!f[9].empty()) r.exit_code = std::stoi(f[9]);
    r.signal = f[10];
    r.error = f[11];
    rows.push_back(std::move(r));
  }
  return rows;
}

nlohmann::json to_json(const OpStatus& s) {
  nlohmann::json j = {{"op", s.op},
                      {"status", to_string(s.state)},
                      {"attempts", s.attempts},
                      {"dtypes_passed", s.dtypes_passed},
                      {"dtypes_failed", s.dtypes_failed},
                      {"backend", s.backend},
                      {"device", s.device},
                      {"timer_used", s.timer_used},
                      {"wall_s", s.wall_s},
                      {"exit", nullptr},
                      {"signal", s.signal},
                      {"error", s.error}};
  if (s.exit_code) j["exit"] = *s.exit_code;
  return j;
}

OpStatus op_status_from_json(const nlohmann::json& j) {
  OpStatus s;
  s.op = j.at("op").get<std::string>();
  auto state = op_state_from_string(j.at("status").get<std::string>());
  if (!state) throw_usage("unknown op status '{}'", j.at("status").get<std::string>());
  s.state = *state;
  s.attempts = j.value("attempts", 0);
  s.dtypes_passed = j.value("dtypes_passed", std::vector<std::string>{});
  s.dtypes_failed = j.value("dtypes_failed", std::vector<std::string>{});
  s.backend = j.value("backend", "");
  s.device = j.value("device", -1);
  s.timer_used = j.value("timer_used", "");
  s.wall_s = j.value("wall_s", 0.0);
  if (j.contains("exit") && j["exit"].is_number_integer()) s.exit_code = j["exit"].get<int>();
  s.signal = j.value("signal", "");
  s.error = j.value("error", "");
  return s;
}

}  // namespace caliber
