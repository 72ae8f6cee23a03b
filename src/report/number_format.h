#pragma once

#include <optional>
#include <string>

namespace caliber {

// Numbers in CSV/JSON-facing text: shortest round-trip form; an absent value is an empty field.
std::string csv_number(double value);
std::string csv_number(const std::optional<double>& value);
// Numbers for people: `digits` significant digits, "-" when absent.
std::string human_number(const std::optional<double>& value, int digits = 4);

}  // namespace caliber
