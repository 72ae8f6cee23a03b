#include "cli/flaggems_flags.h"

#include <fmt/format.h>

#include <map>

#include "core/error.h"
#include "core/flaggems_mode.h"

namespace caliber {
namespace {

// Sets knob `name` for FlagGems flag `alias`, refusing a second value for the same knob.
void set_knob(FlagValues& flags, const std::string& alias, const std::string& name,
              const std::string& value) {
  auto it = flags.find(name);
  if (it != flags.end() && it->second != value) {
    throw_usage("{}: sets {} to '{}', which {} already set to '{}' (accepted: one of the two)",
                alias, knob_def(name).flag, value, knob_def(name).flag, it->second);
  }
  flags[name] = value;
}

void add_mode(CLI::App* command, FlagValues& flags, const std::string& alias) {
  command->add_option_function<std::string>(
      alias,
      [&flags, alias](const std::string& mode) {
        FlagGemsModeKnobs knobs;
        if (!flaggems_mode_knobs(mode, knobs)) {
          throw_usage("{}: '{}' has no caliber timer{} (accepted: {})", alias, mode,
                      mode == "wrapper" ? " (host time without a synchronize)" : "",
                      flaggems_modes_accepted());
        }
        set_knob(flags, alias, "timer", knobs.timer);
        if (!knobs.cache.empty()) set_knob(flags, alias, "cache", knobs.cache);
        if (!knobs.flush_mb.empty()) set_knob(flags, alias, "flush_mb", knobs.flush_mb);
        if (!knobs.flush_method.empty()) {
          set_knob(flags, alias, "flush_method", knobs.flush_method);
        }
        // FlagGems' modes sample for a fixed time, as do_bench does; caliber's default is adaptive.
        if (!flags.count("policy")) flags["policy"] = "fixed";
      },
      fmt::format("FlagGems' --mode: {}", flaggems_modes_accepted()));
}

void add_same(CLI::App* command, FlagValues& flags, const std::string& alias,
              const std::string& knob, const std::string& help) {
  command->add_option_function<std::string>(
      alias, [&flags, alias, knob](const std::string& v) { set_knob(flags, alias, knob, v); },
      fmt::format("FlagGems' {}: {} (caliber's {})", alias, help, knob_def(knob).flag));
}

void add_refused(CLI::App* command, const std::string& alias, bool takes_value,
                 const std::string& instead) {
  std::string message =
      fmt::format("{}: FlagGems' flag has no meaning in caliber ({})", alias, instead);
  auto refuse = [message] { throw Error(ErrorKind::kUsage, message); };
  std::string help = fmt::format("FlagGems' flag, refused: {}", instead);
  if (takes_value) {
    command->add_option_function<std::string>(
        alias, [refuse](const std::string&) { refuse(); }, help);
  } else {
    command->add_flag_callback(alias, refuse, help);
  }
}

}  // namespace

void add_flaggems_flags(CLI::App* command, FlagValues& flags) {
  // FlagGems' list flags are repeated (--dtypes float16 --dtypes bfloat16), caliber's are
  // comma-separated: accept both.
  for (const char* repeatable : {"--dtypes", "--metrics"}) {
    if (CLI::Option* option = command->get_option_no_throw(repeatable)) {
      option->multi_option_policy(CLI::MultiOptionPolicy::Join)->delimiter(',');
    }
  }
  add_mode(command, flags, "--mode");
  add_mode(command, flags, "--fg_mode");  // FlagGems' name for --mode on kunlunxin
  add_same(command, flags, "--warmup", "warmup_ms", "warmup time in ms");
  add_same(command, flags, "--iter", "rep_ms", "measuring time in ms");
  add_same(command, flags, "--shape_file", "shape_file",
           "a YAML shape file (with --shape-mode upstream, relative to the candidate's "
           "benchmark/ folder)");
  add_refused(command, "--query", false, "`caliber ops --level L` lists each op's shapes");
  add_refused(command, "--parallel", true, "`caliber batch --devices 0,1,...` runs on several");
  add_refused(command, "--output", true,
              "--record json writes benchmark_result.json in the run or batch directory; "
              "choose that with --out DIR");
  add_refused(command, "--collect-marks", true, "`caliber ops --json` lists the ops");
}

std::string flaggems_help_note(const std::string& knob) {
  static const std::map<std::string, std::string> kNotes = {
      {"level", "same as FlagGems' --level"},
      {"dtypes", "same as FlagGems' --dtypes, which may be repeated"},
      {"record", "as FlagGems' --record: log writes record.log, json benchmark_result.json"},
      {"metrics", "as FlagGems' --metrics: the fields --record fills; may be repeated"},
      {"timer", "FlagGems' --mode sets it"},
      {"warmup_ms", "FlagGems' --warmup sets it"},
      {"rep_ms", "FlagGems' --iter sets it"},
      {"shape_file", "FlagGems' --shape_file sets it"},
      {"use_flagtune", "handed to the candidate as USE_FLAGTUNE=0|1 before its import"},
      {"op_file", "the old harness's OP_FILE; names the op when OP does not"},
      {"shape_mode",
       "upstream: the candidate checkout's benchmark/core_shapes.yaml instead of caliber's"},
  };
  auto it = kNotes.find(knob);
  return it == kNotes.end() ? "" : it->second;
}

}  // namespace caliber
