#pragma once

#include <string>

#include "core/run_directory.h"
#include "engine/run_sink.h"

namespace caliber {

// The machine-readable part of a run directory: run_identity.json (written at the start and
// again with the end time), shapes.yaml, and results.jsonl one row at a time as it is measured
// (the rows of this run only).
class RunDirectorySink final : public RunSink {
 public:
  RunDirectorySink(const RunDirectory& dir, std::string shapes_yaml)
      : dir_(dir), shapes_yaml_(std::move(shapes_yaml)) {}

 protected:
  void do_begin(const RunIdentity& identity, const std::string&) override {
    dir_.write_identity(identity);
    dir_.write_shapes(shapes_yaml_);
    dir_.start_results();
  }
  void do_case_rows(const std::vector<ResultRow>& rows) override {
    for (const auto& row : rows) dir_.append_result(row);
  }
  void do_end(const RunIdentity& identity, const RunEnd&) override {
    dir_.write_identity(identity);
  }

 private:
  const RunDirectory& dir_;
  std::string shapes_yaml_;
};

}  // namespace caliber
