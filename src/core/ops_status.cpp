#include "core/ops_status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/atomic_file.h"
#include "core/choice.h"
#include "core/csv.h"
#include "core/error.h"
#include "core/text_util.h"

namespace caliber {
namespace {

constexpr std::array<std::pair<OpState, const char*>, 12> kStateNames = {{
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
    {OpState::kTaskEnded, "task_ended"},
    {OpState::kNotRun, "not_run"},
}};

int int_or(const std::string& text, int fallback) {
  try {
    return text.empty() ? fallback : std::stoi(text);
  } catch (const std::exception&) {
    return fallback;
  }
}

double double_or(const std::string& text, double fallback) {
  try {
    return text.empty() ? fallback : std::stod(text);
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace

const char* to_string(OpState state) {
  for (const auto& [s, name] : kStateNames) {
    if (s == state) return name;
  }
  return "?";
}

std::optional<OpState> op_state_from_string(const std::string& text) {
  const std::string lowered = to_lower(text);
  if (lowered == "success" || lowered == "passed") return OpState::kOk;
  if (lowered.rfind("task_", 0) == 0 && lowered.size() > 5) return OpState::kTaskEnded;
  for (const auto& [s, name] : kStateNames) {
    if (lowered == name) return s;
  }
  return std::nullopt;
}

bool is_final(OpState state) {
  return state != OpState::kPending && state != OpState::kInterrupted &&
         state != OpState::kTaskEnded && state != OpState::kNotRun;
}

bool is_failure(OpState state) {
  return is_final(state) && state != OpState::kOk && state != OpState::kDismissed;
}

const char* const kStatusCsvHeader =
    "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,wall_s,exit,signal,"
    "error";

std::string status_csv(const std::vector<OpStatus>& rows) {
  std::string out = std::string(kStatusCsvHeader) + "\n";
  for (const auto& r : rows) {
    out += csv_line({
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
    });
  }
  return out;
}

std::vector<OpStatus> parse_status_csv(const std::string& text) {
  CsvTable table(parse_csv(text));
  std::vector<OpStatus> rows;
  for (size_t i = 0; i < table.size(); ++i) {
    OpStatus r;
    r.op = table.at(i, "op");
    if (r.op.empty()) continue;
    auto state = op_state_from_string(table.at(i, "status"));
    if (!state) {
      throw_usage("ops_status.csv row {}: '{}' is not a status", i + 1, table.at(i, "status"));
    }
    r.state = *state;
    r.attempts = int_or(table.at(i, "attempts"), 0);
    r.dtypes_passed = split_nonempty(table.at(i, "dtypes_passed"), ';');
    r.dtypes_failed = split_nonempty(table.at(i, "dtypes_failed"), ';');
    r.backend = table.at(i, "backend");
    r.device = int_or(table.at(i, "device"), -1);
    r.timer_used = table.at(i, "timer_used");
    r.wall_s = double_or(table.at(i, "wall_s"), 0);
    if (!table.at(i, "exit").empty()) r.exit_code = int_or(table.at(i, "exit"), 0);
    r.signal = table.at(i, "signal");
    r.error = table.at(i, "error");
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<OpStatus> read_ops_status(const std::filesystem::path& path) {
  return parse_status_csv(read_file(path));
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
