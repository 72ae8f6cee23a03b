#pragma once

#include <cstdio>
#include <string>

#include "cli/status_line.h"
#include "core/run_directory.h"
#include "engine/run_sink.h"

namespace caliber {

// run.log: the start banner, one table per op and dtype in FlagGems' printed wording (so grep
// scripts written for its benchmark keep working), the end banner; ANSI-stripped.
class RunLogSink final : public RunSink {
 public:
  explicit RunLogSink(const RunDirectory& dir) : dir_(dir) {}

 protected:
  void do_begin(const RunIdentity&, const std::string& banner) override;
  void do_dtype_done(const DtypeRows& table) override;
  void do_end(const RunIdentity&, const RunEnd& end) override;

 private:
  const RunDirectory& dir_;
};

// The person's view: the banners and a coloured table per op and dtype on `out` (stdout for
// `caliber run`, the op's log for a worker), and a progress line on stderr when `progress`.
class TerminalSink final : public RunSink {
 public:
  TerminalSink(std::FILE* out, bool color, bool progress)
      : out_(out), color_(color), bar_(progress) {}

 protected:
  void do_begin(const RunIdentity&, const std::string& banner) override;
  void do_progress(const std::string& text) override { bar_.update(text); }
  void do_dtype_done(const DtypeRows& table) override;
  void do_end(const RunIdentity&, const RunEnd& end) override;

 private:
  std::FILE* out_;
  bool color_;
  StatusLine bar_;
};

}  // namespace caliber
