#include "report/number_format.h"

#include <fmt/format.h>

#include <cmath>

namespace caliber {

std::string csv_number(double value) {
  if (!std::isfinite(value)) return "";
  return fmt::format("{}", value);
}

std::string csv_number(const std::optional<double>& value) {
  return value ? csv_number(*value) : "";
}

std::string human_number(const std::optional<double>& value, int digits) {
  if (!value || !std::isfinite(*value)) return "-";
  return fmt::format("{:.{}g}", *value, digits);
}

}  // namespace caliber
