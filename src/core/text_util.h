#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace caliber {

// Small text helpers (lists on the command line, in files and in CSV cells).
std::vector<std::string> split(std::string_view text, char separator);
// Splits, trims each item and drops empty ones: "a, b,,c" -> {a, b, c}.
std::vector<std::string> split_nonempty(std::string_view text, char separator);
std::string trim(std::string_view text);
// Collapses a message to one line of at most `limit` characters, for a CSV cell.
std::string one_line(std::string_view text, size_t limit = 300);

}  // namespace caliber
