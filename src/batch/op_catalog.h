#pragma once

#include <string>
#include <vector>

namespace caliber {

// What the batch knows about an op from `caliber ops --json`: enough to select it, to scale
// its timeout and to split its dtypes when the all-dtypes run fails.
struct OpEntry {
  std::string name;
  std::string family;               // empty when unknown
  int shape_count = 0;              // at the batch's level; 0 when unknown
  std::vector<std::string> dtypes;  // the op's default dtypes; empty when unknown
};

// Reads the JSON that `caliber ops --json` prints: an array of op objects, or an object with an
// "ops" array. An op object has "name" (or "op"), and optionally "family", "dtypes" and a shape
// count ("shape_count", "shapes" as a number or a list, or "cases").
std::vector<OpEntry> parse_op_catalog(const std::string& json_text);

}  // namespace caliber
