#pragma once

#include <string>

namespace caliber {

// FlagGems' benchmark names its timing methods (`--mode`) differently from caliber's timers.
// Its `kernel` mode is triton's do_bench (device events around one call, 256 MB L2 flush before
// each), `cudagraph` do_bench_cudagraph (graph replays), `operator` a host wall clock around
// calls and a synchronize; `wrapper` (host time without the synchronize) has no caliber timer.

// FlagGems' mode name closest to a caliber timer: graph -> cudagraph, the device timers (direct,
// batch, kernel) -> kernel, host -> operator; any other text is returned unchanged.
std::string flaggems_mode_name(const std::string& timer);

// What FlagGems' `--mode M` means in caliber's knobs, as (knob name, value) pairs; empty when M
// has no caliber counterpart.
struct FlagGemsModeKnobs {
  std::string timer;
  std::string cache;     // empty: left to its default
  std::string flush_mb;  // empty: left to its default
  // do_bench zeroes its buffer: `write`, whatever caliber's default flush becomes.
  std::string flush_method;  // empty: left to its default
};
bool flaggems_mode_knobs(const std::string& mode, FlagGemsModeKnobs& out);

// The accepted --mode values, for messages and --help.
const char* flaggems_modes_accepted();

}  // namespace caliber
