#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// Input fidelity: FlagGems' printed "Size Detail" of each benchmark case against what caliber
// builds for the same op, dtype and level, both in FlagGems' notation.

// One table of a FlagGems log (one op x dtype), in print order.
struct FlaggemsTable {
  std::string source;  // the log it came from
  std::string op;
  std::string dtype;  // "float16"
  std::string level;  // "core" when the title names none
  std::vector<std::string> details;
};

// The tables of a log's text (caliber's run.log reads the same). A table printed twice stays
// two tables.
std::vector<FlaggemsTable> flaggems_tables(std::string_view text, const std::string& source);

// What caliber builds for one op x dtype x level: every case's Size Detail, or why there is
// nothing to compare (no op answers to the name, the op lacks the dtype).
struct CaliberCases {
  bool matched = false;
  std::string op;   // caliber's op name (differs from the table's when an alias answered)
  std::string why;  // when not matched
  std::vector<std::string> details;
};
using CaliberCasesFn = std::function<CaliberCases(const FlaggemsTable&)>;

enum class FidelityStatus { kSame, kDifferent, kUnmatched };
const char* to_string(FidelityStatus status);

struct FidelityCase {
  const FlaggemsTable* table = nullptr;
  size_t index = 0;  // the row in its table
  FidelityStatus status = FidelityStatus::kUnmatched;
  std::string caliber;  // caliber's case at the same position, when it has one
  std::string why;      // unmatched: why
};

struct FidelityReport {
  std::vector<FidelityCase> cases;
  // Cases caliber builds that the table does not print: "op dtype: detail".
  std::vector<std::string> extra;
  size_t same = 0;
  size_t different = 0;
  size_t unmatched = 0;
};

// `detail` with the value of every 'device' keyword made "<device>": `{'size': [64, 64],
// 'dtype': torch.float16, 'device': 'cuda'}` -> `{..., 'device': <device>}`. The device is the
// run's, not a property of the inputs (FlagGems' logs say 'cuda'; caliber builds its cases on
// 'meta'; a ROCm or Ascend run says its own), so the comparison leaves it out.
std::string device_neutral(std::string_view detail);

// A FlagGems case is the same when caliber builds a case that prints identically, devices
// aside (device_neutral) (each caliber
// case answers one FlagGems case: order aside, the lists must agree as multisets); different
// otherwise. Caliber's cases left over are reported as extra.
FidelityReport check_fidelity(const std::vector<FlaggemsTable>& tables,
                              const CaliberCasesFn& caliber);

// "fidelity: N cases: S same, D different, U unmatched"
std::string fidelity_summary(const FidelityReport& report);

}  // namespace caliber
