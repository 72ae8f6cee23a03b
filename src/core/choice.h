#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace caliber {

std::string to_lower(std::string_view text);

// A closed set of named values, so that parsing, printing and the "accepted: ..." part of an
// error message come from one table.
template <typename E>
class Choice {
 public:
  Choice(std::initializer_list<std::pair<const char*, E>> entries) : entries_(entries) {}

  E parse(std::string_view knob, std::string_view text) const {
    std::string lowered = to_lower(text);
    for (const auto& [name, value] : entries_) {
      if (lowered == name) return value;
    }
    throw_usage("{}: '{}' is not accepted (accepted: {})", knob, text, accepted());
  }

  const char* name(E value) const {
    for (const auto& [name, v] : entries_) {
      if (v == value) return name;
    }
    return "?";
  }

  std::string accepted() const {
    std::vector<std::string> names;
    for (const auto& entry : entries_) names.push_back(entry.first);
    return fmt::format("{}", fmt::join(names, ", "));
  }

 private:
  std::vector<std::pair<const char*, E>> entries_;
};

}  // namespace caliber
