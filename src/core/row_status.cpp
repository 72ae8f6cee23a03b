#include "core/row_status.h"

#include <array>
#include <utility>

namespace caliber {
namespace {

constexpr std::array<std::pair<RowStatus, const char*>, 4> kRowStatusNames = {{
    {RowStatus::kSuccess, "SUCCESS"},
    {RowStatus::kFailed, "FAILED"},
    {RowStatus::kNotCovered, "NOT_COVERED"},
    {RowStatus::kSkipped, "SKIPPED"},
}};

}  // namespace

const char* to_string(RowStatus status) {
  for (const auto& [s, name] : kRowStatusNames) {
    if (s == status) return name;
  }
  return "?";
}

std::optional<RowStatus> row_status_from_string(std::string_view text) {
  for (const auto& [s, name] : kRowStatusNames) {
    if (text == name) return s;
  }
  return std::nullopt;
}

}  // namespace caliber
