#include "cli/compare_confirm.h"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/result_row.h"
#include "report/confirmation_journal.h"

namespace caliber {
namespace fs = std::filesystem;

FlagValues flags_of_command_line(const std::string& command_line) {
  std::istringstream words(command_line);
  std::string word;
  std::vector<std::string> tokens;
  while (words >> word) tokens.push_back(word);
  if (tokens.size() < 2 || tokens[0] != "caliber" || tokens[1] != "run") {
    throw_usage(
        "--confirm: '{}' is not a run's command line (accepted: caliber run --flag value ...)",
        command_line);
  }
  FlagValues flags;
  for (size_t i = 2; i < tokens.size(); i += 2) {
    const KnobDef* def = nullptr;
    for (const auto& d : knob_table()) {
      if (d.flag == tokens[i]) def = &d;
    }
    if (def == nullptr || i + 1 >= tokens.size()) {
      throw_usage(
          "--confirm: cannot read the flags back from '{}' at '{}' (accepted: caliber run --flag "
          "value ..., values without spaces)",
          command_line, tokens[i]);
    }
    flags[def->name] = tokens[i + 1];
  }
  return flags;
}

namespace {

// Each op and dtype's cases in a run, as the shape labels of its baseline rows in the order the
// run wrote them: one pass over the run's rows, however many rows are re-measured.
using CaseLabels = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

CaseLabels case_labels(const RunCollection& run) {
  CaseLabels out;
  for (const auto& c : run.rows) {
    if (c.row.provider == "baseline") out[{c.row.op, c.row.dtype}].push_back(shape_label(c.row));
  }
  return out;
}

struct Side {
  const char* name;  // "A" or "B"
  const RunCollection& run;
  CaseLabels cases;
};

// Where the case of `row` sits among its op's cases of its dtype in `side`: index and count.
// nullopt when the run cannot tell.
std::optional<std::pair<size_t, size_t>> case_position(const RowComparison& row, const Side& side) {
  auto it = side.cases.find({row.op, row.dtype});
  if (it == side.cases.end()) return std::nullopt;
  const std::vector<std::string>& labels = it->second;
  int seen = 0;
  for (size_t index = 0; index < labels.size(); ++index) {
    if (labels[index] == row.shape && seen++ == row.occurrence) {
      return std::make_pair(index, labels.size());
    }
  }
  return std::nullopt;
}

FlagValues side_flags(const RowComparison& row, const Side& side) {
  const RunIdentity* id = side.run.identity_for_op(row.op);
  if (id == nullptr || id->command_line.empty()) {
    throw_usage(
        "--confirm: {} ({}) recorded no command line for op {} (accepted: run "
        "directories written by caliber run or batch)",
        side.name, side.run.root, row.op);
  }
  FlagValues flags = flags_of_command_line(id->command_line);
  flags["dtypes"] = row.dtype;
  flags.erase("record");  // FlagGems' --record log goes beside the screen, not the re-runs
  return flags;
}

// One re-run of the row's case with `flags`; the median of the row it measured, or why not.
std::optional<double> rerun(const RowComparison& row, FlagValues flags, const fs::path& out,
                            const EnvLookup& env, std::string& why) {
  fs::create_directories(out);
  flags["out_dir"] = out.string();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(
      std::fopen((out / "confirm.log").c_str(), "we"), &std::fclose);
  if (!log) throw_usage("--confirm: cannot write '{}'", (out / "confirm.log").string());
  int code = execute_run(flags, env, RunOutput{.out = log.get()});
  const fs::path results = out / "results.jsonl";
  if (!fs::exists(results)) {
    why = fmt::format("re-run exited {} without rows ({})", code, (out / "confirm.log").string());
    return std::nullopt;
  }
  for (const ResultRow& r : read_results_jsonl(results.string())) {
    if (r.op != row.op || r.dtype != row.dtype || r.provider != row.provider ||
        shape_label(r) != row.shape) {
      continue;
    }
    if (r.status != RowStatus::kSuccess) {
      why = fmt::format("re-run row {}: {}", to_string(r.status), r.error);
      return std::nullopt;
    }
    return headline_ms(r);
  }
  why = fmt::format("the re-run in {} has no row for this case", out.string());
  return std::nullopt;
}

void refuse_other_builds(const RunCollection& a, const RunCollection& b) {
  const RunIdentity* ia = a.any_identity();
  const RunIdentity* ib = b.any_identity();
  if (ia == nullptr || ib == nullptr) return;  // side_flags names the run without one
  if (ia->harness_version != ib->harness_version || ia->torch_version != ib->torch_version) {
    throw_usage(
        "--confirm: A was measured by caliber {} with torch {}, B by caliber {} with torch {}; "
        "the confirmation pass re-runs both in this process (accepted: A and B of one build and "
        "torch, differing in flags or candidate)",
        ia->harness_version, ia->torch_version, ib->harness_version, ib->torch_version);
  }
}

}  // namespace

ConfirmationPass run_confirmation(const Comparison& comparison, const RunCollection& a,
                                  const RunCollection& b, int rounds, const fs::path& dir,
                                  const EnvLookup& env, const ConfirmationLimits& limits) {
  refuse_other_builds(a, b);
  const Side sides[2] = {{"A", a, case_labels(a)}, {"B", b, case_labels(b)}};
  // Every flag is read back before the first re-run, so a run that cannot be re-run is refused
  // before any device work.
  const std::vector<size_t> flagged = confirmation_order(comparison);
  std::map<size_t, std::array<FlagValues, 2>> flags;
  for (size_t i : flagged) {
    const RowComparison& row = comparison.rows[i];
    for (int s = 0; s < 2; ++s) {
      FlagValues f = side_flags(row, sides[s]);
      // One case: the shard that holds only it, when the run's rows place it.
      auto position = case_position(row, sides[s]);
      if (position && !f.count("shard")) {
        f["shard"] = fmt::format("{}/{}", position->first, position->second);
      }
      flags[i][s] = std::move(f);
    }
  }
  // The device's peaks are probed once for every re-run, not once per run directory.
  const fs::path peaks = dir / "confirm" / "device_peaks.json";
  fs::create_directories(peaks.parent_path());
  ::setenv("CALIBER_PEAKS_FILE", peaks.c_str(), /*overwrite=*/0);

  const fs::path journal = dir / "confirm" / "confirmations.jsonl";
  ConfirmationPass pass;
  pass.needed = flagged.size();
  pass.confirmations = read_confirmation_journal(journal, comparison, rounds);
  const auto started = std::chrono::steady_clock::now();
  size_t measured = 0;
  for (size_t n = 0; n < flagged.size(); ++n) {
    const size_t i = flagged[n];
    const RowComparison& row = comparison.rows[i];
    const std::string label = fmt::format("confirm {}/{} {} {} {} {}", n + 1, flagged.size(),
                                          row.op, row.dtype, row.provider, row.shape);
    if (pass.confirmations.count(i)) {
      fmt::print(stderr, "{}: from the journal\n", label);
      continue;
    }
    if (limits.interrupted && limits.interrupted->load()) {
      pass.stopped = "interrupted";
      break;
    }
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double per_row_s = measured > 0 ? elapsed_s / static_cast<double>(measured) : 0;
    if (limits.deadline_s > 0 && elapsed_s + per_row_s > limits.deadline_s) {
      pass.stopped = "deadline";
      break;
    }
    Confirmation c;
    c.rounds_asked = rounds;
    for (int round = 0; round < rounds; ++round) {
      double median_ms[2] = {0, 0};
      bool complete = true;
      for (int k = 0; k < 2; ++k) {
        const int s = round % 2 == 0 ? k : 1 - k;  // A then B, B then A, ...
        const fs::path where = dir / "confirm" / fmt::format("row{}", n) /
                               fmt::format("round{}-{}", round + 1, sides[s].name);
        std::string why;
        std::optional<double> m = rerun(row, flags[i][s], where, env, why);
        if (!m || !(*m > 0)) {
          complete = false;
          if (c.note.empty()) c.note = fmt::format("{}: {}", sides[s].name, why);
          continue;
        }
        median_ms[s] = *m;
      }
      if (complete) c.speedups.push_back(median_ms[0] / median_ms[1]);
    }
    append_line_durable(journal, confirmation_journal_line(row, c));
    ++measured;
    fmt::print(stderr, "{}: {} of {} rounds\n", label, c.speedups.size(), rounds);
    pass.confirmations[i] = std::move(c);
  }
  return pass;
}

}  // namespace caliber
