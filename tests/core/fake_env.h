#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/knobs.h"

namespace caliber::testing {

// An environment of the given variables only, for code that reads it through an EnvLookup.
inline EnvLookup env_of(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace caliber::testing
