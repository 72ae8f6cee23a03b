#include "report/ops_status.h"

#include "core/atomic_file.h"
#include "report/csv.h"

namespace caliber {

namespace {

template <typename T>
T number_or(const std::string& text, T fallback) {
  try {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(std::stol(text));
    } else {
      return static_cast<T>(std::stod(text));
    }
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace

std::vector<OpStatusLine> read_ops_status(const std::string& path) {
  CsvTable table(parse_csv(read_file(path)));
  std::vector<OpStatusLine> out;
  for (size_t i = 0; i < table.size(); ++i) {
    OpStatusLine s;
    s.op = table.at(i, "op");
    if (s.op.empty()) continue;
    s.status = table.at(i, "status");
    s.attempts = number_or(table.at(i, "attempts"), 0);
    s.dtypes_passed = table.at(i, "dtypes_passed");
    s.dtypes_failed = table.at(i, "dtypes_failed");
    s.backend = table.at(i, "backend");
    s.device = table.at(i, "device");
    s.timer_used = table.at(i, "timer_used");
    s.wall_s = number_or(table.at(i, "wall_s"), 0.0);
    s.exit = table.at(i, "exit");
    s.signal = table.at(i, "signal");
    s.error = table.at(i, "error");
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace caliber
