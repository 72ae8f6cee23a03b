#pragma once

#include <string>
#include <vector>

namespace caliber {

// One line of a batch directory's ops_status.csv: what happened to an op as a whole (it may have
// no result rows at all: dismissed, crashed, timed out).
struct OpStatusLine {
  std::string op;
  std::string status;  // OK, FAILED, DISMISSED, TIMEOUT, CRASHED, ...
  int attempts = 0;
  std::string dtypes_passed;
  std::string dtypes_failed;
  std::string backend;
  std::string device;
  std::string timer_used;
  double wall_s = 0;
  std::string exit;
  std::string signal;
  std::string error;  // for DISMISSED: the reason
};

// Reads ops_status.csv by column name; missing columns read as empty.
std::vector<OpStatusLine> read_ops_status(const std::string& path);

}  // namespace caliber
