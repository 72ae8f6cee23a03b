#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result_row.h"
#include "core/run_identity.h"

namespace caliber {

// The rows of one op x dtype, when its cases are done: what a FlagGems-style table shows.
struct DtypeRows {
  std::string op;
  std::string dtype;
  std::string timer;  // the primary timer, as the table's mode
  std::string level;
  const std::vector<ResultRow>& rows;
};

// How a run ended, for the end banner.
struct RunEnd {
  int rows = 0;
  int failed = 0;
  double wall_s = 0;
  int exit_code = 0;
  std::string fatal;  // the device-fatal error's summary; empty when none
  int64_t host_rss_bytes = 0;
  int64_t device_allocated_bytes = 0;
  int64_t device_reserved_bytes = 0;
  std::string text;  // the end banner every human-readable sink prints
};

// Where a run's output goes. The run session calls the public methods in order (begin, then per
// case progress and rows, per dtype its table, then end); a sink overrides the do_* it needs, as
// nvbench's printers do.
class RunSink {
 public:
  virtual ~RunSink() = default;

  void begin(const RunIdentity& identity, const std::string& banner) { do_begin(identity, banner); }
  void progress(const std::string& text) { do_progress(text); }
  void case_rows(const std::vector<ResultRow>& rows) { do_case_rows(rows); }
  void dtype_done(const DtypeRows& table) { do_dtype_done(table); }
  void end(const RunIdentity& identity, const RunEnd& end) { do_end(identity, end); }

 protected:
  virtual void do_begin(const RunIdentity&, const std::string&) {}
  virtual void do_progress(const std::string&) {}
  virtual void do_case_rows(const std::vector<ResultRow>&) {}
  virtual void do_dtype_done(const DtypeRows&) {}
  virtual void do_end(const RunIdentity&, const RunEnd&) {}
};

}  // namespace caliber
